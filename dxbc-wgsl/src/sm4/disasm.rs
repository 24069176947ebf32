//! Disassembler in fxc's syntax.

use super::decode::Program;

/// Disassembles a program in fxc's listing syntax (one instruction per line, starting with the
/// `ps_4_0`-style version line).
pub fn disassemble(program: &Program) -> String {
    let mut out = format!("{}_{}_{}\n", program.version.stage.prefix(), program.version.major, program.version.minor);
    for ins in &program.instructions {
        out.push_str(ins.opcode.name());
        out.push('\n');
    }
    out
}
