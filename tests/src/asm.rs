//! A minimal SM4 assembler for hand-written test shaders: operand and instruction tokens, and
//! pixel- and compute-shader containers.

/// Operand types.
pub const TEMP: u32 = 0;
pub const INPUT: u32 = 1;
pub const OUTPUT: u32 = 2;
pub const IMMEDIATE32: u32 = 4;
pub const IMMEDIATE64: u32 = 5;
pub const CONSTANT_BUFFER: u32 = 8;
pub const UAV: u32 = 30;
pub const TGSM: u32 = 31;
pub const THREAD_ID: u32 = 32;
pub const THREAD_GROUP_ID: u32 = 33;
pub const THREAD_ID_IN_GROUP: u32 = 34;
pub const THREAD_ID_IN_GROUP_FLATTENED: u32 = 36;

/// Opcodes.
pub const ADD: u32 = 0;
pub const FRC: u32 = 26;
pub const MUL: u32 = 56;
pub const DCL_INPUT_PS: u32 = 98;
pub const DCL_INPUT_PS_SGV: u32 = 99;
pub const DCL_INPUT_PS_SIV: u32 = 100;
pub const EQ: u32 = 24;
pub const GE: u32 = 29;
pub const LT: u32 = 49;
pub const MOV: u32 = 54;
pub const NE: u32 = 57;
pub const RET: u32 = 62;
pub const DCL_CONSTANT_BUFFER: u32 = 89;
pub const DCL_OUTPUT: u32 = 101;
pub const DCL_TEMPS: u32 = 104;
pub const BREAKC: u32 = 3;
pub const ENDIF: u32 = 21;
pub const ENDLOOP: u32 = 22;
pub const IADD: u32 = 30;
pub const IF: u32 = 31;
pub const IEQ: u32 = 32;
pub const IMAD: u32 = 35;
pub const ISHL: u32 = 41;
pub const LOOP: u32 = 48;
pub const RETC: u32 = 63;
pub const ULT: u32 = 79;
pub const USHR: u32 = 85;
pub const DCL_INPUT: u32 = 95;
pub const DCL_THREAD_GROUP: u32 = 155;
pub const DCL_UAV_RAW: u32 = 157;
pub const DCL_UAV_STRUCTURED: u32 = 158;
pub const DCL_TGSM_RAW: u32 = 159;
pub const DCL_TGSM_STRUCTURED: u32 = 160;
pub const LD_RAW: u32 = 165;
pub const STORE_RAW: u32 = 166;
pub const LD_STRUCTURED: u32 = 167;
pub const STORE_STRUCTURED: u32 = 168;
pub const ATOMIC_UMAX: u32 = 176;
pub const IMM_ATOMIC_ALLOC: u32 = 178;
pub const IMM_ATOMIC_CONSUME: u32 = 179;
pub const IMM_ATOMIC_IADD: u32 = 180;
pub const SYNC: u32 = 190;
pub const DADD: u32 = 191;
pub const DMAX: u32 = 192;
pub const DMIN: u32 = 193;
pub const DMUL: u32 = 194;
pub const DEQ: u32 = 195;
pub const DGE: u32 = 196;
pub const DLT: u32 = 197;
pub const DNE: u32 = 198;
pub const DMOV: u32 = 199;
pub const DMOVC: u32 = 200;
pub const DTOF: u32 = 201;
pub const FTOD: u32 = 202;
pub const DDIV: u32 = 210;
pub const DFMA: u32 = 211;
pub const DRCP: u32 = 212;
pub const DTOI: u32 = 214;
pub const DTOU: u32 = 215;
pub const ITOD: u32 = 216;
pub const UTOD: u32 = 217;

/// `xyzw` → swizzle bits; each char one of `xyzw`.
pub fn swizzle(s: &str) -> u32 {
    s.bytes().enumerate().map(|(i, c)| (u32::from(c.wrapping_sub(b'x')) & 3) << (2 * i)).sum::<u32>()
}

/// `xyzw` subset → write-mask bits.
pub fn mask(s: &str) -> u32 {
    s.bytes().map(|c| 1 << ((c.wrapping_sub(b'x')) & 3)).fold(0, |a, b| a | b)
}

/// A destination register `type#[index].mask`.
pub fn dst(ty: u32, index: u32, m: &str) -> Vec<u32> {
    vec![2 | (mask(m) << 4) | (ty << 12) | (1 << 20), index]
}

/// A source register `type#[index].swizzle`.
pub fn src(ty: u32, index: u32, swz: &str) -> Vec<u32> {
    vec![2 | (1 << 2) | (swizzle(swz) << 4) | (ty << 12) | (1 << 20), index]
}

/// `cb{slot}[{index}].swizzle`.
pub fn cb(slot: u32, index: u32, swz: &str) -> Vec<u32> {
    vec![2 | (1 << 2) | (swizzle(swz) << 4) | (CONSTANT_BUFFER << 12) | (2 << 20), slot, index]
}

/// `l(a, b, c, d)`.
pub fn imm(v: [u32; 4]) -> Vec<u32> {
    let mut t = vec![2 | (IMMEDIATE32 << 12)];
    t.extend_from_slice(&v);
    t
}

/// `d(a, b)`: two doubles, four words (low word first).
pub fn imm64(v: [f64; 2]) -> Vec<u32> {
    let mut t = vec![2 | (IMMEDIATE64 << 12)];
    for x in v {
        let b = x.to_bits();
        t.extend_from_slice(&[b as u32, (b >> 32) as u32]);
    }
    t
}

/// A source operand with a modifier (extended operand token): 1 `-x`, 2 `|x|`, 3 `-|x|`.
pub fn modified(mut operand: Vec<u32>, modifier: u32) -> Vec<u32> {
    operand[0] |= 1 << 31;
    operand.insert(1, 1 | (modifier << 6));
    operand
}

/// The instruction with `_sat`.
pub fn saturated(mut instruction: Vec<u32>) -> Vec<u32> {
    instruction[0] |= 1 << 13;
    instruction
}

/// A register with no index and a swizzle: `vThreadID.xyzx` (`ty` one of the thread-ID types).
pub fn special(ty: u32, swz: &str) -> Vec<u32> {
    vec![2 | (1 << 2) | (swizzle(swz) << 4) | (ty << 12)]
}

/// A `u#`/`g#` operand with no component selection, as fxc writes an atomic's destination.
pub fn memory(ty: u32, index: u32) -> Vec<u32> {
    vec![(ty << 12) | (1 << 20), index]
}

/// The instruction with the `_nz` test (`if_nz`, `breakc_nz`, `retc_nz`).
pub fn nz(mut instruction: Vec<u32>) -> Vec<u32> {
    instruction[0] |= 1 << 18;
    instruction
}

/// `sync` with its flags: 1 `_t`, 2 `_g`, 4 `_ugroup`, 8 `_uglobal`.
pub fn sync(flags: u32) -> Vec<u32> {
    vec![SYNC | (flags << 11) | (1 << 24)]
}

/// `dcl_input` of a thread-ID register with the given mask.
pub fn dcl_thread_input(ty: u32, m: &str) -> Vec<u32> {
    ins(DCL_INPUT, &[vec![2 | (mask(m) << 4) | (ty << 12)]])
}

/// `dcl_uav_raw u#` (with `globallycoherent` when asked).
pub fn dcl_uav_raw(reg: u32, globally_coherent: bool) -> Vec<u32> {
    let mut d = ins(DCL_UAV_RAW, &[memory(UAV, reg)]);
    if globally_coherent {
        d[0] |= 1 << 16;
    }
    d
}

/// `dcl_uav_structured u#, stride` (`dcl_uav_structured_opc`, the hidden counter's
/// `D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER`, when asked).
pub fn dcl_uav_structured(reg: u32, stride: u32, order_preserving_counter: bool) -> Vec<u32> {
    let mut d = ins(DCL_UAV_STRUCTURED, &[memory(UAV, reg)]);
    d.push(stride);
    d[0] += 1 << 24;
    if order_preserving_counter {
        d[0] |= 1 << 23;
    }
    d
}

/// `dcl_tgsm_raw g#, bytes`.
pub fn dcl_tgsm_raw(reg: u32, bytes: u32) -> Vec<u32> {
    let mut d = ins(DCL_TGSM_RAW, &[memory(TGSM, reg)]);
    d.push(bytes);
    d[0] += 1 << 24;
    d
}

/// `dcl_tgsm_structured g#, stride, count`.
pub fn dcl_tgsm_structured(reg: u32, stride: u32, count: u32) -> Vec<u32> {
    let mut d = ins(DCL_TGSM_STRUCTURED, &[memory(TGSM, reg)]);
    d.extend([stride, count]);
    d[0] += 2 << 24;
    d
}

/// `cs_5_0` with `dcl_thread_group x, y, z`, the given declarations, `dcl_temps temps`, then
/// `body` and `ret`, in a DXBC container with empty signatures.
pub fn compute_shader(group: [u32; 3], decls: &[Vec<u32>], temps: u32, body: &[Vec<u32>]) -> Vec<u8> {
    compute_shader_of(CS_5_0, group, decls, temps, body)
}

/// [`compute_shader`] of version token `version` ([`CS_5_0`], or [`CS_5_1`] with its register
/// ranges: [`dcl_range`], [`element`]).
pub fn compute_shader_of(version: u32, group: [u32; 3], decls: &[Vec<u32>], temps: u32, body: &[Vec<u32>]) -> Vec<u8> {
    let mut program = vec![version, 0];
    program.extend([DCL_THREAD_GROUP | (4 << 24), group[0], group[1], group[2]]);
    for d in decls {
        program.extend(d);
    }
    program.extend([DCL_TEMPS | (2 << 24), temps]);
    for i in body {
        program.extend(i);
    }
    program.extend(ins(RET, &[]));
    program[1] = program.len() as u32;
    let shex: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    container(&[(b"ISGN", signature(&[])), (b"OSGN", signature(&[])), (b"SHEX", shex)])
}

/// One instruction: opcode token with its length, then the operands.
pub fn ins(opcode: u32, operands: &[Vec<u32>]) -> Vec<u32> {
    let body: Vec<u32> = operands.iter().flatten().copied().collect();
    let mut t = vec![opcode | ((1 + body.len() as u32) << 24)];
    t.extend(body);
    t
}

/// `ps_4_0` with `dcl_constantbuffer cb0[cb_regs]`, `dcl_output o0.xyzw`, `dcl_temps temps`,
/// then `body` and `ret`, in a DXBC container whose output signature declares SV_Target0 with
/// component type `uint` (`true`) or `float`.
pub fn pixel_shader(cb_regs: u32, temps: u32, body: &[Vec<u32>], uint_output: bool) -> Vec<u8> {
    let decls = [vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, cb_regs]];
    pixel_shader_with(0x40, &decls, &[], temps, body, uint_output)
}

/// An input signature element: semantic, system value (`D3D_NAME`), component type (1 uint,
/// 3 float), register, mask.
pub struct Input(pub &'static str, pub u32, pub u32, pub u32, pub u32);

/// A pixel shader of version token `version` (0x40 = ps_4_0, 0x41 = ps_4_1) with the given
/// declarations, input signature, `dcl_output o0.xyzw`, `dcl_temps temps`, `body`, `ret`.
pub fn pixel_shader_with(
    version: u32,
    decls: &[Vec<u32>],
    inputs: &[Input],
    temps: u32,
    body: &[Vec<u32>],
    uint_output: bool,
) -> Vec<u8> {
    let mut program = vec![version, 0];
    for d in decls {
        program.extend(d);
    }
    program.extend(ins(DCL_OUTPUT, &[vec![0x0010_20f2, 0]]));
    program.extend([DCL_TEMPS | (2 << 24), temps]);
    for i in body {
        program.extend(i);
    }
    program.extend(ins(RET, &[]));
    program[1] = program.len() as u32;
    let shdr: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    let isgn = signature(&inputs.iter().map(|i| (i.0, [0, i.1, i.2, i.3, i.4 | (i.4 << 8)])).collect::<Vec<_>>());
    let osgn = signature(&[("SV_Target", [0, 64, if uint_output { 1 } else { 3 }, 0, 0x0f | (0x0f << 8)])]);
    container(&[(b"ISGN", isgn), (b"OSGN", osgn), (b"SHDR", shdr)])
}

/// A signature chunk: per element its name and (semantic index, system value, component
/// type, register, mask | rw_mask << 8).
fn signature(elements: &[(&str, [u32; 5])]) -> Vec<u8> {
    let mut head: Vec<u32> = vec![elements.len() as u32, 8];
    let mut names: Vec<u8> = Vec::new();
    let names_at = 8 + 24 * elements.len() as u32;
    for (name, e) in elements {
        head.push(names_at + names.len() as u32);
        head.extend_from_slice(e);
        names.extend(name.as_bytes());
        names.push(0);
    }
    names.resize(names.len().next_multiple_of(4), 0);
    let mut out: Vec<u8> = head.iter().flat_map(|w| w.to_le_bytes()).collect();
    out.extend(names);
    out
}

fn container(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let chunks: Vec<([u8; 4], Vec<u8>)> = chunks.iter().map(|(f, d)| (**f, d.clone())).collect();
    dxbc_wgsl::container::assemble(&chunks)
}

// ---- geometry shaders and general containers ----

/// Opcodes of geometry shaders.
pub const CUT: u32 = 9;
pub const EMIT: u32 = 19;
pub const EMITTHENCUT: u32 = 20;
pub const DCL_INPUT_SGV: u32 = 96;
pub const DCL_INPUT_SIV: u32 = 97;
pub const DCL_OUTPUT_SGV: u32 = 102;
pub const DCL_OUTPUT_SIV: u32 = 103;
pub const DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY: u32 = 92;
pub const DCL_GS_INPUT_PRIMITIVE: u32 = 93;
pub const DCL_MAX_OUTPUT_VERTEX_COUNT: u32 = 94;
pub const DCL_GS_INSTANCE_COUNT: u32 = 206;
pub const EMIT_STREAM: u32 = 117;
pub const CUT_STREAM: u32 = 118;
pub const DCL_STREAM: u32 = 143;
/// Operand types of geometry shaders.
pub const INPUT_PRIMITIVE_ID: u32 = 11;
pub const STREAM: u32 = 16;
pub const INPUT_GS_INSTANCE_ID: u32 = 37;
/// `D3D10_SB_NAME` values.
pub const NAME_POSITION: u32 = 1;
pub const NAME_VERTEX_ID: u32 = 6;
pub const NAME_PRIMITIVE_ID: u32 = 7;
pub const NAME_INSTANCE_ID: u32 = 8;
/// Version tokens (`gs_4_0`, `vs_4_0`, `ps_4_0`, `gs_5_0`).
pub const GS_4_0: u32 = 0x0002_0040;
pub const GS_5_0: u32 = 0x0002_0050;
pub const VS_4_0: u32 = 0x0001_0040;
pub const PS_4_0: u32 = 0x0000_0040;

/// A source `v[vertex][register].swizzle` of a geometry shader (immediate indices).
pub fn src_vertex(vertex: u32, register: u32, swz: &str) -> Vec<u32> {
    vec![2 | (1 << 2) | (swizzle(swz) << 4) | (INPUT << 12) | (2 << 20), vertex, register]
}

/// A source `v[rN.c + vertex][register].swizzle`: the vertex chosen by temp `rN`'s component `c`
/// (relative vertex indexing).
pub fn src_vertex_relative(temp: u32, component: u32, vertex: u32, register: u32, swz: &str) -> Vec<u32> {
    // Index 0: immediate + relative (representation 3); index 1: immediate.
    vec![
        2 | (1 << 2) | (swizzle(swz) << 4) | (INPUT << 12) | (2 << 20) | (3 << 22),
        vertex,
        // The relative register: r#.c as a one-component select.
        2 | (2 << 2) | (component << 4) | (TEMP << 12) | (1 << 20),
        temp,
        register,
    ]
}

/// `dcl_input v[vertices][register].mask`, or with a system value `dcl_input_siv` (`name` ≠ 0).
pub fn dcl_gs_input(vertices: u32, register: u32, m: &str, name: u32) -> Vec<u32> {
    let op = vec![2 | (mask(m) << 4) | (INPUT << 12) | (2 << 20), vertices, register];
    if name == 0 {
        ins(DCL_INPUT, &[op])
    } else {
        ins(DCL_INPUT_SIV, &[op, vec![name]])
    }
}

/// `dcl_input vPrim` / `dcl_input vGSInstanceID` (`ty` one of those operand types).
pub fn dcl_gs_system_input(ty: u32) -> Vec<u32> {
    ins(DCL_INPUT, &[vec![1 | (ty << 12)]])
}

/// `dcl_input v#.mask` of a vertex shader, with a system value (`dcl_input_sgv`) when `name` ≠ 0.
pub fn dcl_vs_input(register: u32, m: &str, name: u32) -> Vec<u32> {
    if name == 0 {
        ins(DCL_INPUT, &[dst(INPUT, register, m)])
    } else {
        ins(DCL_INPUT_SGV, &[dst(INPUT, register, m), vec![name]])
    }
}

/// `dcl_output o#.mask`, with a system value (`dcl_output_siv`/`_sgv`) when `name` ≠ 0.
pub fn dcl_output(register: u32, m: &str, name: u32) -> Vec<u32> {
    match name {
        0 => ins(DCL_OUTPUT, &[dst(OUTPUT, register, m)]),
        NAME_PRIMITIVE_ID => ins(DCL_OUTPUT_SGV, &[dst(OUTPUT, register, m), vec![name]]),
        _ => ins(DCL_OUTPUT_SIV, &[dst(OUTPUT, register, m), vec![name]]),
    }
}

/// `dcl_inputprimitive` (`D3D10_SB_PRIMITIVE`: 1 point, 2 line, 3 triangle, 6 lineadj,
/// 7 triangleadj, 7 + n patch of n points).
pub fn dcl_input_primitive(primitive: u32) -> Vec<u32> {
    vec![DCL_GS_INPUT_PRIMITIVE | (primitive << 11) | (1 << 24)]
}

/// `dcl_outputtopology` (1 point list, 3 line strip, 5 triangle strip).
pub fn dcl_output_topology(topology: u32) -> Vec<u32> {
    vec![DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY | (topology << 11) | (1 << 24)]
}

/// `dcl_maxout n`.
pub fn dcl_max_output(n: u32) -> Vec<u32> {
    vec![DCL_MAX_OUTPUT_VERTEX_COUNT | (2 << 24), n]
}

/// `dcl_gsinstances n`.
pub fn dcl_gs_instances(n: u32) -> Vec<u32> {
    vec![DCL_GS_INSTANCE_COUNT | (2 << 24), n]
}

/// `emit`, `cut`, `emit_then_cut` (no operands).
pub fn bare(opcode: u32) -> Vec<u32> {
    vec![opcode | (1 << 24)]
}

/// `emit_stream m#` / `cut_stream m#` / `dcl_stream m#`.
pub fn with_stream(opcode: u32, stream: u32) -> Vec<u32> {
    ins(opcode, &[vec![(STREAM << 12) | (1 << 20), stream]])
}

/// A signature element: semantic name and index, system value (`D3D_NAME`), component type
/// (1 uint, 2 sint, 3 float), register, mask.
#[derive(Debug, Clone, Copy)]
pub struct Element(pub &'static str, pub u32, pub u32, pub u32, pub u32, pub &'static str);

/// A program of version token `version` (`GS_4_0`, `VS_4_0`, `PS_4_0`, ...) with the given
/// declarations, `dcl_temps temps` (when not 0), `body` and `ret`, in a DXBC container with the
/// given input and output signatures.
pub fn shader(
    version: u32,
    inputs: &[Element],
    outputs: &[Element],
    decls: &[Vec<u32>],
    temps: u32,
    body: &[Vec<u32>],
) -> Vec<u8> {
    let mut program = vec![version, 0];
    for d in decls {
        program.extend(d);
    }
    if temps != 0 {
        program.extend([DCL_TEMPS | (2 << 24), temps]);
    }
    for i in body {
        program.extend(i);
    }
    program.extend(ins(RET, &[]));
    program[1] = program.len() as u32;
    let shdr: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    let sig = |els: &[Element], output: bool| {
        let e: Vec<_> = els
            .iter()
            .map(|e| {
                let m = mask(e.5);
                // An output's rw mask is the components never written (0: all written).
                let rw = if output { 0 } else { m };
                (e.0, [e.1, e.2, e.3, e.4, m | (rw << 8)])
            })
            .collect();
        signature(&e)
    };
    let chunk: &[u8; 4] = if version >> 4 & 0xF >= 5 { b"SHEX" } else { b"SHDR" };
    container(&[(b"ISGN", sig(inputs, false)), (b"OSGN", sig(outputs, true)), (chunk, shdr)])
}

/// A pass-through geometry shader: `vertices`-vertex input primitive (`primitive` as
/// [`dcl_input_primitive`] takes it), every vertex emitted in order as one strip of
/// `topology` ([`dcl_output_topology`]), with SV_Position in register 0 and `registers - 1`
/// float4 `TEXCOORD`s after it.
pub fn pass_through_gs(primitive: u32, vertices: u32, topology: u32, registers: u32) -> Vec<u8> {
    let mut inputs = vec![Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let mut outputs = inputs.clone();
    let mut decls = vec![dcl_input_primitive(primitive), dcl_output_topology(topology), dcl_max_output(vertices)];
    decls.push(dcl_gs_input(vertices, 0, "xyzw", NAME_POSITION));
    for r in 1..registers {
        inputs.push(Element("TEXCOORD", r - 1, 0, 3, r, "xyzw"));
        outputs.push(Element("TEXCOORD", r - 1, 0, 3, r, "xyzw"));
        decls.push(dcl_gs_input(vertices, r, "xyzw", 0));
    }
    decls.push(dcl_output(0, "xyzw", NAME_POSITION));
    for r in 1..registers {
        decls.push(dcl_output(r, "xyzw", 0));
    }
    let mut body = Vec::new();
    for v in 0..vertices {
        for r in 0..registers {
            body.push(ins(MOV, &[dst(OUTPUT, r, "xyzw"), src_vertex(v, r, "xyzw")]));
        }
        body.push(bare(EMIT));
    }
    shader(GS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// More opcodes.
pub const MAD: u32 = 50;
pub const UTOF: u32 = 86;

/// A one-component source register without an index (`vPrim`, `vGSInstanceID`).
pub fn scalar_input(ty: u32) -> Vec<u32> {
    vec![1 | (ty << 12)]
}

/// `dcl_input_ps constant v#.mask` (a flat pixel-shader input).
pub fn dcl_input_ps_flat(register: u32, m: &str) -> Vec<u32> {
    ins(DCL_INPUT_PS | (1 << 11), &[dst(INPUT, register, m)])
}

/// `dcl_input_ps_sgv constant v#.mask, name`.
pub fn dcl_input_ps_sgv(register: u32, m: &str, name: u32) -> Vec<u32> {
    ins(DCL_INPUT_PS_SGV | (1 << 11), &[dst(INPUT, register, m), vec![name]])
}

/// [`shader`] with an `OSG5` output signature: each output element with its stream (a
/// geometry shader of several streams, SM5).
pub fn shader_streams(
    version: u32,
    inputs: &[Element],
    outputs: &[(u32, Element)],
    decls: &[Vec<u32>],
    temps: u32,
    body: &[Vec<u32>],
) -> Vec<u8> {
    let plain: Vec<Element> = outputs.iter().map(|(_, e)| *e).collect();
    let blob = shader(version, inputs, &plain, decls, temps, body);
    let container = dxbc_wgsl::Container::parse(&blob, &dxbc_wgsl::ReadOptions::default()).expect("container");
    let mut chunks: Vec<([u8; 4], Vec<u8>)> = container.chunks.iter().map(|c| (c.fourcc, c.data.to_vec())).collect();
    // OSG5: per element its stream, then the OSGN fields.
    let mut head: Vec<u32> = vec![outputs.len() as u32, 8];
    let mut names: Vec<u8> = Vec::new();
    let names_at = 8 + 28 * outputs.len() as u32;
    for (stream, e) in outputs {
        head.extend([*stream, names_at + names.len() as u32, e.1, e.2, e.3, e.4, u32::from(mask(e.5) as u8)]);
        names.extend(e.0.as_bytes());
        names.push(0);
    }
    names.resize(names.len().next_multiple_of(4), 0);
    let mut osg5: Vec<u8> = head.iter().flat_map(|w| w.to_le_bytes()).collect();
    osg5.extend(names);
    for c in &mut chunks {
        if &c.0 == b"OSGN" {
            *c = (*b"OSG5", osg5.clone());
        }
    }
    dxbc_wgsl::container::assemble(&chunks)
}

// ---- SM5.1: register ranges and spaces ----

/// Version tokens of compute shaders.
pub const CS_5_0: u32 = 0x0005_0050;
pub const CS_5_1: u32 = 0x0005_0051;
/// Operand types of resources and samplers.
pub const SAMPLER: u32 = 6;
pub const RESOURCE: u32 = 7;
/// Opcodes of resources.
pub const LD: u32 = 45;
pub const SAMPLE_L: u32 = 72;
pub const DCL_RESOURCE: u32 = 88;
pub const DCL_SAMPLER: u32 = 90;
/// `D3D10_SB_RESOURCE_DIMENSION_TEXTURE2D`, as `dcl_resource`'s control bits take it.
pub const TEXTURE2D: u32 = 3;
/// The upper bound of an unbounded range (`T0[3:*]`).
pub const UNBOUNDED: u32 = u32::MAX;

/// The first token of an SM5.1 operand of register type `ty` with `indices` indices (all
/// immediate), after `head`: its component count and selection bits.
fn sm51_token(head: u32, ty: u32, indices: u32) -> u32 {
    head | (ty << 12) | (indices << 20)
}

/// The component bits fxc writes for an operand of type `ty`: four components and a swizzle
/// for constant buffers and resources, none for samplers and UAVs.
fn declared_components(ty: u32) -> u32 {
    match ty {
        CONSTANT_BUFFER | RESOURCE => 2 | (1 << 2) | (swizzle("xyzw") << 4),
        _ => 0,
    }
}

/// An SM5.1 binding declaration: `opcode` (with its control bits) of the range
/// `ty#id[lower:upper]` ([`UNBOUNDED`] for `*`), then `before_space` (a resource's return type
/// token, a constant buffer's size) and the register space:
/// `dcl_resource_texture2d (float,float,float,float) T0[2:5], space=1` is
/// `dcl_range(DCL_RESOURCE | (TEXTURE2D << 11), RESOURCE, 0, 2, 5, &[0x5555], 1)`.
pub fn dcl_range(opcode: u32, ty: u32, id: u32, lower: u32, upper: u32, before_space: &[u32], space: u32) -> Vec<u32> {
    let mut operand = vec![sm51_token(declared_components(ty), ty, 3), id, lower, upper];
    operand.extend_from_slice(before_space);
    operand.push(space);
    ins(opcode, &[operand])
}

/// An access to register `register` of SM5.1 range `ty#id` as a source (`T0[3].swz`, `S0[5]`
/// without components, `U0[1]`), with an immediate index.
pub fn element(ty: u32, id: u32, register: u32, swz: &str) -> Vec<u32> {
    let head = if ty == SAMPLER || swz.is_empty() { 0 } else { 2 | (1 << 2) | (swizzle(swz) << 4) };
    vec![sm51_token(head, ty, 2), id, register]
}

/// `U0[register].mask` of SM5.1 range `U#id` as a destination.
pub fn element_dst(id: u32, register: u32, m: &str) -> Vec<u32> {
    vec![sm51_token(2 | (mask(m) << 4), UAV, 2), id, register]
}

/// `CB{id}[register][offset].swz` of an SM5.1 constant-buffer range.
pub fn cb_element(id: u32, register: u32, offset: u32, swz: &str) -> Vec<u32> {
    vec![sm51_token(2 | (1 << 2) | (swizzle(swz) << 4), CONSTANT_BUFFER, 3), id, register, offset]
}

/// A source `ty#id[rN.c + base]` of an SM5.1 range (a dynamic index: index 1 immediate plus
/// relative, representation 3), with `tail` the indices after it (a constant buffer's offset).
pub fn element_relative(ty: u32, id: u32, temp: u32, component: u32, base: u32, swz: &str, tail: &[u32]) -> Vec<u32> {
    let head = if ty == SAMPLER || swz.is_empty() { 0 } else { 2 | (1 << 2) | (swizzle(swz) << 4) };
    let mut t = vec![sm51_token(head, ty, 2 + tail.len() as u32) | (3 << 25), id, base];
    t.extend([2 | (2 << 2) | (component << 4) | (TEMP << 12) | (1 << 20), temp]);
    t.extend_from_slice(tail);
    t
}
