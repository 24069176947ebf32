//! The opcode table: one row per SM4/SM5 opcode (D3D11.3 §22 and `D3D10_SB_OPCODE_TYPE` /
//! `D3D11_SB_OPCODE_TYPE`), giving its mnemonic, its operands' roles and types, and how its
//! tokens are laid out. The decoder, the disassembler and the IR builder all read this table;
//! adding an opcode means adding its row here and its arm in `lower`.
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
}

/// An opcode number. Its row is [`Opcode::info`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opcode(pub u16);

const I: Form = Form::Inst;
const fn d(operands: u8, ret: bool, dwords: u8, dwords51: u8) -> Form {
    Form::Decl { operands, ret, dwords, dwords51 }
}

macro_rules! opcodes {
    ($($code:literal $konst:ident $name:literal $form:expr, $dst:literal $src:literal;)*) => {
        impl Opcode {
            $(#[doc = concat!("`", $name, "`")] pub const $konst: Opcode = Opcode($code);)*
        }
        /// The table, indexed by opcode number.
        pub static OPCODE_TABLE: &[OpInfo] = &[
            $(OpInfo { code: $code, name: $name, dst: $dst, src: $src, form: $form },)*
        ];
    };
}

opcodes! {
    0 ADD "add" I, "f" "ff";
    1 AND "and" I, "u" "uu";
    2 BREAK "break" I, "" "";
    3 BREAKC "breakc" I, "" "c";
    4 CALL "call" I, "" "o";
    5 CALLC "callc" I, "" "co";
    6 CASE "case" I, "" "u";
    7 CONTINUE "continue" I, "" "";
    8 CONTINUEC "continuec" I, "" "c";
    9 CUT "cut" I, "" "";
    10 DEFAULT "default" I, "" "";
    11 DERIV_RTX "deriv_rtx" I, "f" "f";
    12 DERIV_RTY "deriv_rty" I, "f" "f";
    13 DISCARD "discard" I, "" "c";
    14 DIV "div" I, "f" "ff";
    15 DP2 "dp2" I, "f" "ff";
    16 DP3 "dp3" I, "f" "ff";
    17 DP4 "dp4" I, "f" "ff";
    18 ELSE "else" I, "" "";
    19 EMIT "emit" I, "" "";
    20 EMITTHENCUT "emit_then_cut" I, "" "";
    21 ENDIF "endif" I, "" "";
    22 ENDLOOP "endloop" I, "" "";
    23 ENDSWITCH "endswitch" I, "" "";
    24 EQ "eq" I, "u" "ff";
    25 EXP "exp" I, "f" "f";
    26 FRC "frc" I, "f" "f";
    27 FTOI "ftoi" I, "i" "f";
    28 FTOU "ftou" I, "u" "f";
    29 GE "ge" I, "u" "ff";
    30 IADD "iadd" I, "i" "ii";
    31 IF "if" I, "" "c";
    32 IEQ "ieq" I, "u" "ii";
    33 IGE "ige" I, "u" "ii";
    34 ILT "ilt" I, "u" "ii";
    35 IMAD "imad" I, "i" "iii";
    36 IMAX "imax" I, "i" "ii";
    37 IMIN "imin" I, "i" "ii";
    38 IMUL "imul" I, "ii" "ii";
    39 INE "ine" I, "u" "ii";
    40 INEG "ineg" I, "i" "i";
    41 ISHL "ishl" I, "i" "iu";
    42 ISHR "ishr" I, "i" "iu";
    43 ITOF "itof" I, "f" "i";
    44 LABEL "label" I, "" "o";
    45 LD "ld" I, "x" "ar";
    46 LD_MS "ldms" I, "x" "ari";
    47 LOG "log" I, "f" "f";
    48 LOOP "loop" I, "" "";
    49 LT "lt" I, "u" "ff";
    50 MAD "mad" I, "f" "fff";
    51 MIN "min" I, "f" "ff";
    52 MAX "max" I, "f" "ff";
    53 CUSTOMDATA "customdata" Form::CustomData, "" "";
    54 MOV "mov" I, "x" "x";
    55 MOVC "movc" I, "x" "cxx";
    56 MUL "mul" I, "f" "ff";
    57 NE "ne" I, "u" "ff";
    58 NOP "nop" I, "" "";
    59 NOT "not" I, "u" "u";
    60 OR "or" I, "u" "uu";
    61 RESINFO "resinfo" I, "x" "ur";
    62 RET "ret" I, "" "";
    63 RETC "retc" I, "" "c";
    64 ROUND_NE "round_ne" I, "f" "f";
    65 ROUND_NI "round_ni" I, "f" "f";
    66 ROUND_PI "round_pi" I, "f" "f";
    67 ROUND_Z "round_z" I, "f" "f";
    68 RSQ "rsq" I, "f" "f";
    69 SAMPLE "sample" I, "x" "frs";
    70 SAMPLE_C "sample_c" I, "f" "frsf";
    71 SAMPLE_C_LZ "sample_c_lz" I, "f" "frsf";
    72 SAMPLE_L "sample_l" I, "x" "frsf";
    73 SAMPLE_D "sample_d" I, "x" "frsff";
    74 SAMPLE_B "sample_b" I, "x" "frsf";
    75 SQRT "sqrt" I, "f" "f";
    76 SWITCH "switch" I, "" "u";
    77 SINCOS "sincos" I, "ff" "f";
    78 UDIV "udiv" I, "uu" "uu";
    79 ULT "ult" I, "u" "uu";
    80 UGE "uge" I, "u" "uu";
    81 UMUL "umul" I, "uu" "uu";
    82 UMAD "umad" I, "u" "uuu";
    83 UMAX "umax" I, "u" "uu";
    84 UMIN "umin" I, "u" "uu";
    85 USHR "ushr" I, "u" "uu";
    86 UTOF "utof" I, "f" "u";
    87 XOR "xor" I, "u" "uu";
    88 DCL_RESOURCE "dcl_resource" d(1, true, 0, 1), "" "";
    89 DCL_CONSTANT_BUFFER "dcl_constantbuffer" d(1, false, 0, 2), "" "";
    90 DCL_SAMPLER "dcl_sampler" d(1, false, 0, 1), "" "";
    91 DCL_INDEX_RANGE "dcl_indexrange" d(1, false, 1, 0), "" "";
    92 DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY "dcl_outputtopology" d(0, false, 0, 0), "" "";
    93 DCL_GS_INPUT_PRIMITIVE "dcl_inputprimitive" d(0, false, 0, 0), "" "";
    94 DCL_MAX_OUTPUT_VERTEX_COUNT "dcl_maxout" d(0, false, 1, 0), "" "";
    95 DCL_INPUT "dcl_input" d(1, false, 0, 0), "" "";
    96 DCL_INPUT_SGV "dcl_input_sgv" d(1, false, 1, 0), "" "";
    97 DCL_INPUT_SIV "dcl_input_siv" d(1, false, 1, 0), "" "";
    98 DCL_INPUT_PS "dcl_input_ps" d(1, false, 0, 0), "" "";
    99 DCL_INPUT_PS_SGV "dcl_input_ps_sgv" d(1, false, 1, 0), "" "";
    100 DCL_INPUT_PS_SIV "dcl_input_ps_siv" d(1, false, 1, 0), "" "";
    101 DCL_OUTPUT "dcl_output" d(1, false, 0, 0), "" "";
    102 DCL_OUTPUT_SGV "dcl_output_sgv" d(1, false, 1, 0), "" "";
    103 DCL_OUTPUT_SIV "dcl_output_siv" d(1, false, 1, 0), "" "";
    104 DCL_TEMPS "dcl_temps" d(0, false, 1, 0), "" "";
    105 DCL_INDEXABLE_TEMP "dcl_indexableTemp" d(0, false, 3, 0), "" "";
    106 DCL_GLOBAL_FLAGS "dcl_globalFlags" d(0, false, 0, 0), "" "";
    107 RESERVED_107 "reserved_107" Form::Raw, "" "";
    108 LOD "lod" I, "f" "frs";
    109 GATHER4 "gather4" I, "x" "frs";
    110 SAMPLE_POS "samplepos" I, "f" "ru";
    111 SAMPLE_INFO "sampleinfo" I, "x" "r";
    112 RESERVED_112 "reserved_112" Form::Raw, "" "";
    113 HS_DECLS "hs_decls" I, "" "";
    114 HS_CONTROL_POINT_PHASE "hs_control_point_phase" I, "" "";
    115 HS_FORK_PHASE "hs_fork_phase" I, "" "";
    116 HS_JOIN_PHASE "hs_join_phase" I, "" "";
    117 EMIT_STREAM "emit_stream" I, "" "r";
    118 CUT_STREAM "cut_stream" I, "" "r";
    119 EMITTHENCUT_STREAM "emit_then_cut_stream" I, "" "r";
    120 INTERFACE_CALL "fcall" Form::InterfaceCall, "" "o";
    121 BUFINFO "bufinfo" I, "u" "r";
    122 DERIV_RTX_COARSE "deriv_rtx_coarse" I, "f" "f";
    123 DERIV_RTX_FINE "deriv_rtx_fine" I, "f" "f";
    124 DERIV_RTY_COARSE "deriv_rty_coarse" I, "f" "f";
    125 DERIV_RTY_FINE "deriv_rty_fine" I, "f" "f";
    126 GATHER4_C "gather4_c" I, "f" "frsf";
    127 GATHER4_PO "gather4_po" I, "x" "fars";
    128 GATHER4_PO_C "gather4_po_c" I, "f" "farsf";
    129 RCP "rcp" I, "f" "f";
    130 F32TOF16 "f32tof16" I, "u" "f";
    131 F16TOF32 "f16tof32" I, "f" "u";
    132 UADDC "uaddc" I, "uu" "uu";
    133 USUBB "usubb" I, "uu" "uu";
    134 COUNTBITS "countbits" I, "u" "u";
    135 FIRSTBIT_HI "firstbit_hi" I, "u" "u";
    136 FIRSTBIT_LO "firstbit_lo" I, "u" "u";
    137 FIRSTBIT_SHI "firstbit_shi" I, "u" "i";
    138 UBFE "ubfe" I, "u" "uuu";
    139 IBFE "ibfe" I, "i" "uui";
    140 BFI "bfi" I, "u" "uuuu";
    141 BFREV "bfrev" I, "u" "u";
    142 SWAPC "swapc" I, "xx" "cxx";
    143 DCL_STREAM "dcl_stream" d(1, false, 0, 0), "" "";
    144 DCL_FUNCTION_BODY "dcl_function_body" d(0, false, 1, 0), "" "";
    145 DCL_FUNCTION_TABLE "dcl_function_table" Form::Raw, "" "";
    146 DCL_INTERFACE "dcl_interface" Form::Raw, "" "";
    147 DCL_INPUT_CONTROL_POINT_COUNT "dcl_input_control_point_count" d(0, false, 0, 0), "" "";
    148 DCL_OUTPUT_CONTROL_POINT_COUNT "dcl_output_control_point_count" d(0, false, 0, 0), "" "";
    149 DCL_TESS_DOMAIN "dcl_tessellator_domain" d(0, false, 0, 0), "" "";
    150 DCL_TESS_PARTITIONING "dcl_tessellator_partitioning" d(0, false, 0, 0), "" "";
    151 DCL_TESS_OUTPUT_PRIMITIVE "dcl_tessellator_output_primitive" d(0, false, 0, 0), "" "";
    152 DCL_HS_MAX_TESSFACTOR "dcl_hs_max_tessfactor" d(0, false, 1, 0), "" "";
    153 DCL_HS_FORK_PHASE_INSTANCE_COUNT "dcl_hs_fork_phase_instance_count" d(0, false, 1, 0), "" "";
    154 DCL_HS_JOIN_PHASE_INSTANCE_COUNT "dcl_hs_join_phase_instance_count" d(0, false, 1, 0), "" "";
    155 DCL_THREAD_GROUP "dcl_thread_group" d(0, false, 3, 0), "" "";
    156 DCL_UAV_TYPED "dcl_uav_typed" d(1, true, 0, 1), "" "";
    157 DCL_UAV_RAW "dcl_uav_raw" d(1, false, 0, 1), "" "";
    158 DCL_UAV_STRUCTURED "dcl_uav_structured" d(1, false, 1, 1), "" "";
    159 DCL_TGSM_RAW "dcl_tgsm_raw" d(1, false, 1, 0), "" "";
    160 DCL_TGSM_STRUCTURED "dcl_tgsm_structured" d(1, false, 2, 0), "" "";
    161 DCL_RESOURCE_RAW "dcl_resource_raw" d(1, false, 0, 1), "" "";
    162 DCL_RESOURCE_STRUCTURED "dcl_resource_structured" d(1, false, 1, 1), "" "";
    163 LD_UAV_TYPED "ld_uav_typed" I, "x" "ar";
    164 STORE_UAV_TYPED "store_uav_typed" I, "r" "ax";
    165 LD_RAW "ld_raw" I, "x" "ar";
    166 STORE_RAW "store_raw" I, "r" "ax";
    167 LD_STRUCTURED "ld_structured" I, "x" "aar";
    168 STORE_STRUCTURED "store_structured" I, "r" "aax";
    169 ATOMIC_AND "atomic_and" I, "r" "au";
    170 ATOMIC_OR "atomic_or" I, "r" "au";
    171 ATOMIC_XOR "atomic_xor" I, "r" "au";
    172 ATOMIC_CMP_STORE "atomic_cmp_store" I, "r" "auu";
    173 ATOMIC_IADD "atomic_iadd" I, "r" "ai";
    174 ATOMIC_IMAX "atomic_imax" I, "r" "ai";
    175 ATOMIC_IMIN "atomic_imin" I, "r" "ai";
    176 ATOMIC_UMAX "atomic_umax" I, "r" "au";
    177 ATOMIC_UMIN "atomic_umin" I, "r" "au";
    178 IMM_ATOMIC_ALLOC "imm_atomic_alloc" I, "u" "r";
    179 IMM_ATOMIC_CONSUME "imm_atomic_consume" I, "u" "r";
    180 IMM_ATOMIC_IADD "imm_atomic_iadd" I, "ir" "ai";
    181 IMM_ATOMIC_AND "imm_atomic_and" I, "ur" "au";
    182 IMM_ATOMIC_OR "imm_atomic_or" I, "ur" "au";
    183 IMM_ATOMIC_XOR "imm_atomic_xor" I, "ur" "au";
    184 IMM_ATOMIC_EXCH "imm_atomic_exch" I, "ur" "au";
    185 IMM_ATOMIC_CMP_EXCH "imm_atomic_cmp_exch" I, "ur" "auu";
    186 IMM_ATOMIC_IMAX "imm_atomic_imax" I, "ir" "ai";
    187 IMM_ATOMIC_IMIN "imm_atomic_imin" I, "ir" "ai";
    188 IMM_ATOMIC_UMAX "imm_atomic_umax" I, "ur" "au";
    189 IMM_ATOMIC_UMIN "imm_atomic_umin" I, "ur" "au";
    190 SYNC "sync" I, "" "";
    191 DADD "dadd" I, "d" "dd";
    192 DMAX "dmax" I, "d" "dd";
    193 DMIN "dmin" I, "d" "dd";
    194 DMUL "dmul" I, "d" "dd";
    195 DEQ "deq" I, "u" "dd";
    196 DGE "dge" I, "u" "dd";
    197 DLT "dlt" I, "u" "dd";
    198 DNE "dne" I, "u" "dd";
    199 DMOV "dmov" I, "d" "d";
    200 DMOVC "dmovc" I, "d" "cdd";
    201 DTOF "dtof" I, "f" "d";
    202 FTOD "ftod" I, "d" "f";
    203 EVAL_SNAPPED "eval_snapped" I, "f" "fa";
    204 EVAL_SAMPLE_INDEX "eval_sample_index" I, "f" "fu";
    205 EVAL_CENTROID "eval_centroid" I, "f" "f";
    206 DCL_GS_INSTANCE_COUNT "dcl_gsinstances" d(0, false, 1, 0), "" "";
    207 ABORT "abort" I, "" "";
    208 DEBUG_BREAK "debug_break" I, "" "";
    209 RESERVED_209 "reserved_209" Form::Raw, "" "";
    210 DDIV "ddiv" I, "d" "dd";
    211 DFMA "dfma" I, "d" "ddd";
    212 DRCP "drcp" I, "d" "d";
    213 MSAD "msad" I, "u" "uuu";
    214 DTOI "dtoi" I, "i" "d";
    215 DTOU "dtou" I, "u" "d";
    216 ITOD "itod" I, "d" "i";
    217 UTOD "utod" I, "d" "u";
    218 RESERVED_218 "reserved_218" Form::Raw, "" "";
    219 GATHER4_FEEDBACK "gather4_s" I, "xu" "frs";
    220 GATHER4_C_FEEDBACK "gather4_c_s" I, "fu" "frsf";
    221 GATHER4_PO_FEEDBACK "gather4_po_s" I, "xu" "fars";
    222 GATHER4_PO_C_FEEDBACK "gather4_po_c_s" I, "fu" "farsf";
    223 LD_FEEDBACK "ld_s" I, "xu" "ar";
    224 LD_MS_FEEDBACK "ld2dms_s" I, "xu" "ari";
    225 LD_UAV_TYPED_FEEDBACK "ld_uav_typed_s" I, "xu" "ar";
    226 LD_RAW_FEEDBACK "ld_raw_s" I, "xu" "ar";
    227 LD_STRUCTURED_FEEDBACK "ld_structured_s" I, "xu" "aar";
    228 SAMPLE_L_FEEDBACK "sample_l_s" I, "xu" "frsf";
    229 SAMPLE_C_LZ_FEEDBACK "sample_c_lz_s" I, "fu" "frsf";
    230 SAMPLE_CLAMP_FEEDBACK "sample_cl_s" I, "xu" "frsf";
    231 SAMPLE_B_CLAMP_FEEDBACK "sample_b_cl_s" I, "xu" "frsff";
    232 SAMPLE_D_CLAMP_FEEDBACK "sample_d_cl_s" I, "xu" "frsfff";
    233 SAMPLE_C_CLAMP_FEEDBACK "sample_c_cl_s" I, "fu" "frsff";
    234 CHECK_ACCESS_FULLY_MAPPED "check_access_fully_mapped" I, "u" "u";
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
    /// opcode range).
    pub fn is_atomic(self) -> bool {
        (Opcode::ATOMIC_AND.0..=Opcode::IMM_ATOMIC_UMIN.0).contains(&self.0)
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
}
