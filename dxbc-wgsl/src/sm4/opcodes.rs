//! The opcode table: one row per SM4/SM5 opcode (D3D11.3 §22 and `D3D10_SB_OPCODE_TYPE` /
//! `D3D11_SB_OPCODE_TYPE`), giving its mnemonic, its operands' roles and types, how its tokens
//! are laid out, which part of the translator handles it ([`Family`], or the documented reason
//! it is refused) and the facts its consumers need ([`UNIFORM`], [`VARYING`], [`COMPARISON`]).
//! The decoder, the disassembler, the IR builder, the uniformity analysis and the lowering all
//! read this table; adding an opcode means adding its row here and its lowering function in its
//! family's module of `lower`.
//!
//! Operand type letters (one per operand, destinations first):
//! `f` float, `i` signed int, `u` unsigned int, `x` untyped bits (moves), `d` double (pairs of
//! 32-bit lanes), `r` resource / UAV / TGSM, `s` sampler, `a` integer address or coordinates,
//! `c` condition (raw-bits test), `o` offset or other integer immediate.

/// How an opcode's tokens after the opcode (and extended opcode) tokens are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Ordinary instruction: `dst.len() + src.len()` operands.
    Inst,
    /// Declaration: `operands` operand tokens, then a resource return-type token if `ret`, then
    /// `dwords` raw words, then `dwords51` more raw words in SM5.1 programs (register space,
    /// constant-buffer size).
    Decl {
        /// Operand tokens.
        operands: u8,
        /// Followed by a resource return-type token.
        ret: bool,
        /// Raw words after the operands.
        dwords: u8,
        /// Raw words added in SM5.1.
        dwords51: u8,
    },
    /// `customdata`: the second word is the total length.
    CustomData,
    /// All remaining words are kept raw (`dcl_function_table`, `dcl_interface`).
    Raw,
    /// `fcall`: one raw word (call-site index), then one operand.
    InterfaceCall,
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// Opcode number.
    pub code: u16,
    /// fxc mnemonic.
    pub name: &'static str,
    /// Destination operand types (one letter each).
    pub dst: &'static str,
    /// Source operand types (one letter each).
    pub src: &'static str,
    /// Token layout.
    pub form: Form,
    /// Which part of the translator handles it, or the documented reason it is refused.
    pub family: Family,
    /// Facts its consumers need ([`UNIFORM`], [`VARYING`], [`COMPARISON`]).
    pub flags: u8,
}

/// Which part of the translator handles an opcode (`lower/` has one module per family), or why
/// it is refused. Every row names one; `lower`'s table test checks that each lowered family's
/// rows have a lowering and each refused row's reason is documented in `docs/compatibility.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Structured control flow: scopes of the IR (`ir::build`), lowered by `lower::control_flow`.
    ControlFlow,
    /// Declarations: read by the IR builder into its descriptions.
    Declaration,
    /// Moves, arithmetic, comparisons, conversions, bit operations and derivatives.
    Alu,
    /// Double-precision instructions (`lower::f64`).
    Double,
    /// Texture sampling, loads, gathers and queries.
    Texture,
    /// Raw, structured and typed buffer and UAV loads and stores.
    Buffer,
    /// UAV and thread-group shared memory atomics.
    Atomic,
    /// `sync` barriers and fences.
    Sync,
    /// A geometry shader's output: `emit`, `cut` and their `_stream` forms (`lower::geometry`).
    Primitive,
    /// Refused for a reason `docs/compatibility.md` documents.
    Refused(RefusalReason),
}

/// Flag: WGSL requires the instruction in uniform control flow (explicit derivatives and
/// implicit-LOD sampling: `deriv_*`, `sample`, `sample_b`, `sample_c`).
pub const UNIFORM: u8 = 1;
/// Flag: its result differs per invocation whatever its sources (texture sampling and gathers;
/// atomics are [`Opcode::is_atomic`]): the uniformity analysis treats it as non-uniform.
pub const VARYING: u8 = 2;
/// Flag: it samples or gathers through a comparison sampler.
pub const COMPARISON: u8 = 4;

/// An opcode number. Its row is [`Opcode::info`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opcode(pub u16);

use crate::refusal::RefusalReason;
use Family::{Alu, Atomic, Buffer, ControlFlow, Declaration, Double, Primitive, Refused, Sync, Texture};
use RefusalReason as R;

const I: Form = Form::Inst;
const fn d(operands: u8, ret: bool, dwords: u8, dwords51: u8) -> Form {
    Form::Decl { operands, ret, dwords, dwords51 }
}

macro_rules! opcodes {
    ($($code:literal $konst:ident $name:literal $form:expr, $dst:literal $src:literal, $family:expr, $flags:expr;)*) => {
        impl Opcode {
            $(#[doc = concat!("`", $name, "`")] pub const $konst: Opcode = Opcode($code);)*
        }
        /// The table, indexed by opcode number.
        pub static OPCODE_TABLE: &[OpInfo] = &[
            $(OpInfo { code: $code, name: $name, dst: $dst, src: $src, form: $form, family: $family, flags: $flags },)*
        ];
    };
}

opcodes! {
    0 ADD "add" I, "f" "ff", Alu, 0;
    1 AND "and" I, "u" "uu", Alu, 0;
    2 BREAK "break" I, "" "", ControlFlow, 0;
    3 BREAKC "breakc" I, "" "c", ControlFlow, 0;
    4 CALL "call" I, "" "o", Refused(R::Interfaces), 0;
    5 CALLC "callc" I, "" "co", Refused(R::Interfaces), 0;
    6 CASE "case" I, "" "u", ControlFlow, 0;
    7 CONTINUE "continue" I, "" "", ControlFlow, 0;
    8 CONTINUEC "continuec" I, "" "c", ControlFlow, 0;
    9 CUT "cut" I, "" "", Primitive, 0;
    10 DEFAULT "default" I, "" "", ControlFlow, 0;
    11 DERIV_RTX "deriv_rtx" I, "f" "f", Alu, UNIFORM;
    12 DERIV_RTY "deriv_rty" I, "f" "f", Alu, UNIFORM;
    13 DISCARD "discard" I, "" "c", ControlFlow, 0;
    14 DIV "div" I, "f" "ff", Alu, 0;
    15 DP2 "dp2" I, "f" "ff", Alu, 0;
    16 DP3 "dp3" I, "f" "ff", Alu, 0;
    17 DP4 "dp4" I, "f" "ff", Alu, 0;
    18 ELSE "else" I, "" "", ControlFlow, 0;
    19 EMIT "emit" I, "" "", Primitive, 0;
    20 EMITTHENCUT "emit_then_cut" I, "" "", Primitive, 0;
    21 ENDIF "endif" I, "" "", ControlFlow, 0;
    22 ENDLOOP "endloop" I, "" "", ControlFlow, 0;
    23 ENDSWITCH "endswitch" I, "" "", ControlFlow, 0;
    24 EQ "eq" I, "u" "ff", Alu, 0;
    25 EXP "exp" I, "f" "f", Alu, 0;
    26 FRC "frc" I, "f" "f", Alu, 0;
    27 FTOI "ftoi" I, "i" "f", Alu, 0;
    28 FTOU "ftou" I, "u" "f", Alu, 0;
    29 GE "ge" I, "u" "ff", Alu, 0;
    30 IADD "iadd" I, "i" "ii", Alu, 0;
    31 IF "if" I, "" "c", ControlFlow, 0;
    32 IEQ "ieq" I, "u" "ii", Alu, 0;
    33 IGE "ige" I, "u" "ii", Alu, 0;
    34 ILT "ilt" I, "u" "ii", Alu, 0;
    35 IMAD "imad" I, "i" "iii", Alu, 0;
    36 IMAX "imax" I, "i" "ii", Alu, 0;
    37 IMIN "imin" I, "i" "ii", Alu, 0;
    38 IMUL "imul" I, "ii" "ii", Alu, 0;
    39 INE "ine" I, "u" "ii", Alu, 0;
    40 INEG "ineg" I, "i" "i", Alu, 0;
    41 ISHL "ishl" I, "i" "iu", Alu, 0;
    42 ISHR "ishr" I, "i" "iu", Alu, 0;
    43 ITOF "itof" I, "f" "i", Alu, 0;
    44 LABEL "label" I, "" "o", Refused(R::Interfaces), 0;
    45 LD "ld" I, "x" "ar", Texture, 0;
    46 LD_MS "ldms" I, "x" "ari", Texture, 0;
    47 LOG "log" I, "f" "f", Alu, 0;
    48 LOOP "loop" I, "" "", ControlFlow, 0;
    49 LT "lt" I, "u" "ff", Alu, 0;
    50 MAD "mad" I, "f" "fff", Alu, 0;
    51 MIN "min" I, "f" "ff", Alu, 0;
    52 MAX "max" I, "f" "ff", Alu, 0;
    53 CUSTOMDATA "customdata" Form::CustomData, "" "", Declaration, 0;
    54 MOV "mov" I, "x" "x", Alu, 0;
    55 MOVC "movc" I, "x" "cxx", Alu, 0;
    56 MUL "mul" I, "f" "ff", Alu, 0;
    57 NE "ne" I, "u" "ff", Alu, 0;
    58 NOP "nop" I, "" "", Alu, 0;
    59 NOT "not" I, "u" "u", Alu, 0;
    60 OR "or" I, "u" "uu", Alu, 0;
    61 RESINFO "resinfo" I, "x" "ur", Texture, 0;
    62 RET "ret" I, "" "", ControlFlow, 0;
    63 RETC "retc" I, "" "c", ControlFlow, 0;
    64 ROUND_NE "round_ne" I, "f" "f", Alu, 0;
    65 ROUND_NI "round_ni" I, "f" "f", Alu, 0;
    66 ROUND_PI "round_pi" I, "f" "f", Alu, 0;
    67 ROUND_Z "round_z" I, "f" "f", Alu, 0;
    68 RSQ "rsq" I, "f" "f", Alu, 0;
    69 SAMPLE "sample" I, "x" "frs", Texture, UNIFORM | VARYING;
    70 SAMPLE_C "sample_c" I, "f" "frsf", Texture, UNIFORM | VARYING | COMPARISON;
    71 SAMPLE_C_LZ "sample_c_lz" I, "f" "frsf", Texture, VARYING | COMPARISON;
    72 SAMPLE_L "sample_l" I, "x" "frsf", Texture, VARYING;
    73 SAMPLE_D "sample_d" I, "x" "frsff", Texture, VARYING;
    74 SAMPLE_B "sample_b" I, "x" "frsf", Texture, UNIFORM | VARYING;
    75 SQRT "sqrt" I, "f" "f", Alu, 0;
    76 SWITCH "switch" I, "" "u", ControlFlow, 0;
    77 SINCOS "sincos" I, "ff" "f", Alu, 0;
    78 UDIV "udiv" I, "uu" "uu", Alu, 0;
    79 ULT "ult" I, "u" "uu", Alu, 0;
    80 UGE "uge" I, "u" "uu", Alu, 0;
    81 UMUL "umul" I, "uu" "uu", Alu, 0;
    82 UMAD "umad" I, "u" "uuu", Alu, 0;
    83 UMAX "umax" I, "u" "uu", Alu, 0;
    84 UMIN "umin" I, "u" "uu", Alu, 0;
    85 USHR "ushr" I, "u" "uu", Alu, 0;
    86 UTOF "utof" I, "f" "u", Alu, 0;
    87 XOR "xor" I, "u" "uu", Alu, 0;
    88 DCL_RESOURCE "dcl_resource" d(1, true, 0, 1), "" "", Declaration, 0;
    89 DCL_CONSTANT_BUFFER "dcl_constantbuffer" d(1, false, 0, 2), "" "", Declaration, 0;
    90 DCL_SAMPLER "dcl_sampler" d(1, false, 0, 1), "" "", Declaration, 0;
    91 DCL_INDEX_RANGE "dcl_indexrange" d(1, false, 1, 0), "" "", Declaration, 0;
    92 DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY "dcl_outputtopology" d(0, false, 0, 0), "" "", Declaration, 0;
    93 DCL_GS_INPUT_PRIMITIVE "dcl_inputprimitive" d(0, false, 0, 0), "" "", Declaration, 0;
    94 DCL_MAX_OUTPUT_VERTEX_COUNT "dcl_maxout" d(0, false, 1, 0), "" "", Declaration, 0;
    95 DCL_INPUT "dcl_input" d(1, false, 0, 0), "" "", Declaration, 0;
    96 DCL_INPUT_SGV "dcl_input_sgv" d(1, false, 1, 0), "" "", Declaration, 0;
    97 DCL_INPUT_SIV "dcl_input_siv" d(1, false, 1, 0), "" "", Declaration, 0;
    98 DCL_INPUT_PS "dcl_input_ps" d(1, false, 0, 0), "" "", Declaration, 0;
    99 DCL_INPUT_PS_SGV "dcl_input_ps_sgv" d(1, false, 1, 0), "" "", Declaration, 0;
    100 DCL_INPUT_PS_SIV "dcl_input_ps_siv" d(1, false, 1, 0), "" "", Declaration, 0;
    101 DCL_OUTPUT "dcl_output" d(1, false, 0, 0), "" "", Declaration, 0;
    102 DCL_OUTPUT_SGV "dcl_output_sgv" d(1, false, 1, 0), "" "", Declaration, 0;
    103 DCL_OUTPUT_SIV "dcl_output_siv" d(1, false, 1, 0), "" "", Declaration, 0;
    104 DCL_TEMPS "dcl_temps" d(0, false, 1, 0), "" "", Declaration, 0;
    105 DCL_INDEXABLE_TEMP "dcl_indexableTemp" d(0, false, 3, 0), "" "", Declaration, 0;
    106 DCL_GLOBAL_FLAGS "dcl_globalFlags" d(0, false, 0, 0), "" "", Declaration, 0;
    107 RESERVED_107 "reserved_107" Form::Raw, "" "", Refused(R::OpcodeUnsupported), 0;
    108 LOD "lod" I, "f" "frs", Refused(R::WebGpuLimitation), VARYING;
    109 GATHER4 "gather4" I, "x" "frs", Texture, VARYING;
    110 SAMPLE_POS "samplepos" I, "f" "ru", Texture, 0;
    111 SAMPLE_INFO "sampleinfo" I, "x" "r", Texture, 0;
    112 RESERVED_112 "reserved_112" Form::Raw, "" "", Refused(R::OpcodeUnsupported), 0;
    113 HS_DECLS "hs_decls" I, "" "", Refused(R::StageUnsupported), 0;
    114 HS_CONTROL_POINT_PHASE "hs_control_point_phase" I, "" "", Refused(R::StageUnsupported), 0;
    115 HS_FORK_PHASE "hs_fork_phase" I, "" "", Refused(R::StageUnsupported), 0;
    116 HS_JOIN_PHASE "hs_join_phase" I, "" "", Refused(R::StageUnsupported), 0;
    117 EMIT_STREAM "emit_stream" I, "" "r", Primitive, 0;
    118 CUT_STREAM "cut_stream" I, "" "r", Primitive, 0;
    119 EMITTHENCUT_STREAM "emit_then_cut_stream" I, "" "r", Primitive, 0;
    120 INTERFACE_CALL "fcall" Form::InterfaceCall, "" "o", Refused(R::Interfaces), 0;
    121 BUFINFO "bufinfo" I, "u" "r", Buffer, 0;
    122 DERIV_RTX_COARSE "deriv_rtx_coarse" I, "f" "f", Alu, UNIFORM;
    123 DERIV_RTX_FINE "deriv_rtx_fine" I, "f" "f", Alu, UNIFORM;
    124 DERIV_RTY_COARSE "deriv_rty_coarse" I, "f" "f", Alu, UNIFORM;
    125 DERIV_RTY_FINE "deriv_rty_fine" I, "f" "f", Alu, UNIFORM;
    126 GATHER4_C "gather4_c" I, "f" "frsf", Texture, VARYING | COMPARISON;
    127 GATHER4_PO "gather4_po" I, "x" "fars", Texture, VARYING;
    128 GATHER4_PO_C "gather4_po_c" I, "f" "farsf", Texture, VARYING | COMPARISON;
    129 RCP "rcp" I, "f" "f", Alu, 0;
    130 F32TOF16 "f32tof16" I, "u" "f", Alu, 0;
    131 F16TOF32 "f16tof32" I, "f" "u", Alu, 0;
    132 UADDC "uaddc" I, "uu" "uu", Alu, 0;
    133 USUBB "usubb" I, "uu" "uu", Alu, 0;
    134 COUNTBITS "countbits" I, "u" "u", Alu, 0;
    135 FIRSTBIT_HI "firstbit_hi" I, "u" "u", Alu, 0;
    136 FIRSTBIT_LO "firstbit_lo" I, "u" "u", Alu, 0;
    137 FIRSTBIT_SHI "firstbit_shi" I, "u" "i", Alu, 0;
    138 UBFE "ubfe" I, "u" "uuu", Alu, 0;
    139 IBFE "ibfe" I, "i" "uui", Alu, 0;
    140 BFI "bfi" I, "u" "uuuu", Alu, 0;
    141 BFREV "bfrev" I, "u" "u", Alu, 0;
    142 SWAPC "swapc" I, "xx" "cxx", Alu, 0;
    143 DCL_STREAM "dcl_stream" d(1, false, 0, 0), "" "", Declaration, 0;
    144 DCL_FUNCTION_BODY "dcl_function_body" d(0, false, 1, 0), "" "", Refused(R::Interfaces), 0;
    145 DCL_FUNCTION_TABLE "dcl_function_table" Form::Raw, "" "", Refused(R::Interfaces), 0;
    146 DCL_INTERFACE "dcl_interface" Form::Raw, "" "", Refused(R::Interfaces), 0;
    147 DCL_INPUT_CONTROL_POINT_COUNT "dcl_input_control_point_count" d(0, false, 0, 0), "" "", Declaration, 0;
    148 DCL_OUTPUT_CONTROL_POINT_COUNT "dcl_output_control_point_count" d(0, false, 0, 0), "" "", Declaration, 0;
    149 DCL_TESS_DOMAIN "dcl_tessellator_domain" d(0, false, 0, 0), "" "", Declaration, 0;
    150 DCL_TESS_PARTITIONING "dcl_tessellator_partitioning" d(0, false, 0, 0), "" "", Declaration, 0;
    151 DCL_TESS_OUTPUT_PRIMITIVE "dcl_tessellator_output_primitive" d(0, false, 0, 0), "" "", Declaration, 0;
    152 DCL_HS_MAX_TESSFACTOR "dcl_hs_max_tessfactor" d(0, false, 1, 0), "" "", Declaration, 0;
    153 DCL_HS_FORK_PHASE_INSTANCE_COUNT "dcl_hs_fork_phase_instance_count" d(0, false, 1, 0), "" "", Declaration, 0;
    154 DCL_HS_JOIN_PHASE_INSTANCE_COUNT "dcl_hs_join_phase_instance_count" d(0, false, 1, 0), "" "", Declaration, 0;
    155 DCL_THREAD_GROUP "dcl_thread_group" d(0, false, 3, 0), "" "", Declaration, 0;
    156 DCL_UAV_TYPED "dcl_uav_typed" d(1, true, 0, 1), "" "", Declaration, 0;
    157 DCL_UAV_RAW "dcl_uav_raw" d(1, false, 0, 1), "" "", Declaration, 0;
    158 DCL_UAV_STRUCTURED "dcl_uav_structured" d(1, false, 1, 1), "" "", Declaration, 0;
    159 DCL_TGSM_RAW "dcl_tgsm_raw" d(1, false, 1, 0), "" "", Declaration, 0;
    160 DCL_TGSM_STRUCTURED "dcl_tgsm_structured" d(1, false, 2, 0), "" "", Declaration, 0;
    161 DCL_RESOURCE_RAW "dcl_resource_raw" d(1, false, 0, 1), "" "", Declaration, 0;
    162 DCL_RESOURCE_STRUCTURED "dcl_resource_structured" d(1, false, 1, 1), "" "", Declaration, 0;
    163 LD_UAV_TYPED "ld_uav_typed" I, "x" "ar", Buffer, 0;
    164 STORE_UAV_TYPED "store_uav_typed" I, "r" "ax", Buffer, 0;
    165 LD_RAW "ld_raw" I, "x" "ar", Buffer, 0;
    166 STORE_RAW "store_raw" I, "r" "ax", Buffer, 0;
    167 LD_STRUCTURED "ld_structured" I, "x" "aar", Buffer, 0;
    168 STORE_STRUCTURED "store_structured" I, "r" "aax", Buffer, 0;
    169 ATOMIC_AND "atomic_and" I, "r" "au", Atomic, 0;
    170 ATOMIC_OR "atomic_or" I, "r" "au", Atomic, 0;
    171 ATOMIC_XOR "atomic_xor" I, "r" "au", Atomic, 0;
    172 ATOMIC_CMP_STORE "atomic_cmp_store" I, "r" "auu", Atomic, 0;
    173 ATOMIC_IADD "atomic_iadd" I, "r" "ai", Atomic, 0;
    174 ATOMIC_IMAX "atomic_imax" I, "r" "ai", Atomic, 0;
    175 ATOMIC_IMIN "atomic_imin" I, "r" "ai", Atomic, 0;
    176 ATOMIC_UMAX "atomic_umax" I, "r" "au", Atomic, 0;
    177 ATOMIC_UMIN "atomic_umin" I, "r" "au", Atomic, 0;
    178 IMM_ATOMIC_ALLOC "imm_atomic_alloc" I, "u" "r", Atomic, 0;
    179 IMM_ATOMIC_CONSUME "imm_atomic_consume" I, "u" "r", Atomic, 0;
    180 IMM_ATOMIC_IADD "imm_atomic_iadd" I, "ir" "ai", Atomic, 0;
    181 IMM_ATOMIC_AND "imm_atomic_and" I, "ur" "au", Atomic, 0;
    182 IMM_ATOMIC_OR "imm_atomic_or" I, "ur" "au", Atomic, 0;
    183 IMM_ATOMIC_XOR "imm_atomic_xor" I, "ur" "au", Atomic, 0;
    184 IMM_ATOMIC_EXCH "imm_atomic_exch" I, "ur" "au", Atomic, 0;
    185 IMM_ATOMIC_CMP_EXCH "imm_atomic_cmp_exch" I, "ur" "auu", Atomic, 0;
    186 IMM_ATOMIC_IMAX "imm_atomic_imax" I, "ir" "ai", Atomic, 0;
    187 IMM_ATOMIC_IMIN "imm_atomic_imin" I, "ir" "ai", Atomic, 0;
    188 IMM_ATOMIC_UMAX "imm_atomic_umax" I, "ur" "au", Atomic, 0;
    189 IMM_ATOMIC_UMIN "imm_atomic_umin" I, "ur" "au", Atomic, 0;
    190 SYNC "sync" I, "" "", Sync, 0;
    191 DADD "dadd" I, "d" "dd", Double, 0;
    192 DMAX "dmax" I, "d" "dd", Double, 0;
    193 DMIN "dmin" I, "d" "dd", Double, 0;
    194 DMUL "dmul" I, "d" "dd", Double, 0;
    195 DEQ "deq" I, "u" "dd", Double, 0;
    196 DGE "dge" I, "u" "dd", Double, 0;
    197 DLT "dlt" I, "u" "dd", Double, 0;
    198 DNE "dne" I, "u" "dd", Double, 0;
    199 DMOV "dmov" I, "d" "d", Double, 0;
    200 DMOVC "dmovc" I, "d" "cdd", Double, 0;
    201 DTOF "dtof" I, "f" "d", Double, 0;
    202 FTOD "ftod" I, "d" "f", Double, 0;
    203 EVAL_SNAPPED "eval_snapped" I, "f" "fa", Refused(R::WebGpuLimitation), 0;
    204 EVAL_SAMPLE_INDEX "eval_sample_index" I, "f" "fu", Refused(R::WebGpuLimitation), 0;
    205 EVAL_CENTROID "eval_centroid" I, "f" "f", Refused(R::WebGpuLimitation), 0;
    206 DCL_GS_INSTANCE_COUNT "dcl_gsinstances" d(0, false, 1, 0), "" "", Declaration, 0;
    207 ABORT "abort" I, "" "", Refused(R::OpcodeUnsupported), 0;
    208 DEBUG_BREAK "debug_break" I, "" "", Refused(R::OpcodeUnsupported), 0;
    209 RESERVED_209 "reserved_209" Form::Raw, "" "", Refused(R::OpcodeUnsupported), 0;
    210 DDIV "ddiv" I, "d" "dd", Double, 0;
    211 DFMA "dfma" I, "d" "ddd", Double, 0;
    212 DRCP "drcp" I, "d" "d", Double, 0;
    213 MSAD "msad" I, "u" "uuu", Refused(R::OpcodeUnsupported), 0;
    214 DTOI "dtoi" I, "i" "d", Double, 0;
    215 DTOU "dtou" I, "u" "d", Double, 0;
    216 ITOD "itod" I, "d" "i", Double, 0;
    217 UTOD "utod" I, "d" "u", Double, 0;
    218 RESERVED_218 "reserved_218" Form::Raw, "" "", Refused(R::OpcodeUnsupported), 0;
    219 GATHER4_FEEDBACK "gather4_s" I, "xu" "frs", Refused(R::OpcodeUnsupported), 0;
    220 GATHER4_C_FEEDBACK "gather4_c_s" I, "fu" "frsf", Refused(R::OpcodeUnsupported), 0;
    221 GATHER4_PO_FEEDBACK "gather4_po_s" I, "xu" "fars", Refused(R::OpcodeUnsupported), 0;
    222 GATHER4_PO_C_FEEDBACK "gather4_po_c_s" I, "fu" "farsf", Refused(R::OpcodeUnsupported), 0;
    223 LD_FEEDBACK "ld_s" I, "xu" "ar", Refused(R::OpcodeUnsupported), 0;
    224 LD_MS_FEEDBACK "ld2dms_s" I, "xu" "ari", Refused(R::OpcodeUnsupported), 0;
    225 LD_UAV_TYPED_FEEDBACK "ld_uav_typed_s" I, "xu" "ar", Refused(R::OpcodeUnsupported), 0;
    226 LD_RAW_FEEDBACK "ld_raw_s" I, "xu" "ar", Refused(R::OpcodeUnsupported), 0;
    227 LD_STRUCTURED_FEEDBACK "ld_structured_s" I, "xu" "aar", Refused(R::OpcodeUnsupported), 0;
    228 SAMPLE_L_FEEDBACK "sample_l_s" I, "xu" "frsf", Refused(R::OpcodeUnsupported), 0;
    229 SAMPLE_C_LZ_FEEDBACK "sample_c_lz_s" I, "fu" "frsf", Refused(R::OpcodeUnsupported), 0;
    230 SAMPLE_CLAMP_FEEDBACK "sample_cl_s" I, "xu" "frsf", Refused(R::OpcodeUnsupported), 0;
    231 SAMPLE_B_CLAMP_FEEDBACK "sample_b_cl_s" I, "xu" "frsff", Refused(R::OpcodeUnsupported), 0;
    232 SAMPLE_D_CLAMP_FEEDBACK "sample_d_cl_s" I, "xu" "frsfff", Refused(R::OpcodeUnsupported), 0;
    233 SAMPLE_C_CLAMP_FEEDBACK "sample_c_cl_s" I, "fu" "frsff", Refused(R::OpcodeUnsupported), 0;
    234 CHECK_ACCESS_FULLY_MAPPED "check_access_fully_mapped" I, "u" "u", Refused(R::OpcodeUnsupported), 0;
}

impl Opcode {
    /// The table row, or `None` for a number past the table.
    pub fn info(self) -> Option<&'static OpInfo> {
        OPCODE_TABLE.get(self.0 as usize)
    }
    /// The mnemonic (`"unknown"` past the table).
    pub fn name(self) -> &'static str {
        self.info().map(|i| i.name).unwrap_or("unknown")
    }
    /// Whether this is a declaration (including `customdata` and the hull-shader phase markers).
    pub fn is_declaration(self) -> bool {
        matches!(self.info().map(|i| i.form), Some(Form::Decl { .. } | Form::Raw)) || self == Opcode::CUSTOMDATA
    }
    /// Whether this is one of the UAV/TGSM atomics (`atomic_*` and `imm_atomic_*`, a contiguous
    /// opcode range; the counter atomics [`Opcode::is_counter`] among them).
    pub fn is_atomic(self) -> bool {
        (Opcode::ATOMIC_AND.0..=Opcode::IMM_ATOMIC_UMIN.0).contains(&self.0)
    }
    /// Whether this is `imm_atomic_alloc` or `imm_atomic_consume`: an atomic on a structured
    /// UAV's hidden counter, not on its words.
    pub fn is_counter(self) -> bool {
        matches!(self, Opcode::IMM_ATOMIC_ALLOC | Opcode::IMM_ATOMIC_CONSUME)
    }
    /// The row's [`Family`] (`Refused(OpcodeUnsupported)` past the table).
    pub fn family(self) -> Family {
        self.info().map_or(Family::Refused(RefusalReason::OpcodeUnsupported), |i| i.family)
    }
    /// Whether the row has `flag` ([`UNIFORM`], [`VARYING`], [`COMPARISON`]).
    pub fn has(self, flag: u8) -> bool {
        self.info().is_some_and(|i| i.flags & flag != 0)
    }
    /// Whether an operand holds doubles (type letter `d`): the SM5 double-precision instructions.
    pub fn is_double(self) -> bool {
        self.info().is_some_and(|x| x.dst.contains('d') || x.src.contains('d'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode_number() {
        for (i, row) in OPCODE_TABLE.iter().enumerate() {
            assert_eq!(row.code as usize, i, "row {} is out of place", row.name);
            for c in row.dst.chars().chain(row.src.chars()) {
                assert!("fiuxdrsaco".contains(c), "{}: bad type letter {c}", row.name);
            }
        }
        assert_eq!(Opcode::ADD.name(), "add");
        assert_eq!(Opcode::CHECK_ACCESS_FULLY_MAPPED.0, 234);
        assert_eq!(Opcode::DCL_THREAD_GROUP.0, 155);
        assert_eq!(Opcode::SYNC.0, 190);
        assert_eq!(Opcode::DCL_GS_INSTANCE_COUNT.0, 206);
    }

    /// Every refused row's reason is documented in `docs/compatibility.md`, and its row there
    /// names the opcode: a refusal nobody can look up fails here.
    #[test]
    fn refused_rows_are_documented() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/compatibility.md"))
            .expect("docs/compatibility.md");
        let mut missing = Vec::new();
        for row in OPCODE_TABLE {
            let Family::Refused(reason) = row.family else { continue };
            let line = doc.lines().find(|l| l.starts_with(&format!("| `{}` |", reason.id())));
            match line {
                None => missing.push(format!("{}: reason `{}` has no row", row.name, reason.id())),
                Some(l) if !l.contains(&format!("`{}`", row.name)) => {
                    missing.push(format!("{}: the `{}` row does not name it", row.name, reason.id()))
                }
                Some(_) => {}
            }
        }
        assert!(missing.is_empty(), "undocumented refusals:\n{}", missing.join("\n"));
    }

    /// The flags sit on the rows their consumers expect (the uniformity analysis and the
    /// lowering's comparison samplers read them).
    #[test]
    fn flags_mark_their_rows() {
        let with = |flag| OPCODE_TABLE.iter().filter(|r| r.flags & flag != 0).map(|r| r.name).collect::<Vec<_>>();
        assert_eq!(
            with(UNIFORM),
            [
                "deriv_rtx",
                "deriv_rty",
                "sample",
                "sample_c",
                "sample_b",
                "deriv_rtx_coarse",
                "deriv_rtx_fine",
                "deriv_rty_coarse",
                "deriv_rty_fine"
            ]
        );
        assert_eq!(with(COMPARISON), ["sample_c", "sample_c_lz", "gather4_c", "gather4_po_c"]);
        for r in OPCODE_TABLE.iter().filter(|r| r.flags & (VARYING | COMPARISON) != 0) {
            assert!(
                matches!(r.family, Family::Texture | Family::Refused(_)),
                "{} is flagged but is no texture instruction",
                r.name
            );
        }
    }
}
