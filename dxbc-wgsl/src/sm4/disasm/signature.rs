//! fxc's signature tables (the `// Name Index Mask Register ...` header of a listing).

use crate::chunks::signature::{ComponentType, Signature, SignatureElement};
use std::fmt::Write as _;

/// Writes a signature in the table layout of fxc's listing header (`// Name Index Mask ...`
/// rows, without the `// ` prefix), one element per line. `is_output` selects how the "Used"
/// column reads the element's read/write mask: inputs list the components the shader reads,
/// outputs the components it always writes (the chunk stores the ones it never writes).
pub fn signature_table(sig: &Signature, is_output: bool) -> String {
    let mut out = String::new();
    out.push_str("Name                 Index   Mask Register SysValue  Format   Used\n");
    out.push_str("-------------------- ----- ------ -------- -------- ------- ------\n");
    for e in &sig.elements {
        let f = signature_fields(e, is_output);
        let _ = writeln!(
            out,
            "{:<20} {:>5}   {:<4} {:>8} {:>8} {:>7}   {:<4}",
            f.name, f.index, f.mask, f.register, f.system_value, f.format, f.used
        );
    }
    out
}

/// One row of an fxc signature table, as fxc prints each column (trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureFields {
    /// Semantic name.
    pub name: String,
    /// Semantic index.
    pub index: String,
    /// Declared mask, positional (`xy  `, `  zw`), or `N/A`.
    pub mask: String,
    /// Register number, or the register name for elements without one (`oDepth`).
    pub register: String,
    /// System-value abbreviation (`NONE`, `POS`, `TARGET`, ...).
    pub system_value: String,
    /// Component type (`float`, `uint`, `int`).
    pub format: String,
    /// Used components, positional, or `YES`/`NO` for elements without a register.
    pub used: String,
}

/// The columns fxc prints for one signature element (see [`signature_table`]).
pub fn signature_fields(e: &SignatureElement, is_output: bool) -> SignatureFields {
    let used_mask = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
    let no_register = e.register == u32::MAX;
    let register = if no_register {
        match e.system_value {
            65 => "oDepth".to_string(),
            66 => "oMask".to_string(),
            67 => "oDepthGE".to_string(),
            68 => "oDepthLE".to_string(),
            69 => "oStencilRef".to_string(),
            _ => "N/A".to_string(),
        }
    } else {
        e.register.to_string()
    };
    SignatureFields {
        name: e.semantic_name.clone(),
        index: e.semantic_index.to_string(),
        mask: if no_register { "N/A".into() } else { positional_mask(e.mask) },
        register,
        system_value: system_value_abbrev(effective_system_value(e)),
        format: match e.component_type {
            ComponentType::Uint32 => "uint".into(),
            ComponentType::Sint32 => "int".into(),
            ComponentType::Float32 => "float".into(),
            ComponentType::Unknown => "N/A".into(),
            ComponentType::Other(v) => format!("type{v}"),
        },
        used: if no_register {
            if used_mask != 0 || is_output {
                "YES".into()
            } else {
                "NO".into()
            }
        } else {
            positional_mask(used_mask)
        },
    }
}

/// The chunk stores 0 (undefined) for pixel-shader outputs such as `SV_Target` and `SV_Depth`;
/// fxc names them from the semantic.
fn effective_system_value(e: &SignatureElement) -> u32 {
    if e.system_value != 0 {
        return e.system_value;
    }
    match e.semantic_name.to_ascii_lowercase().as_str() {
        "sv_target" => 64,
        "sv_depth" => 65,
        "sv_coverage" => 66,
        "sv_depthgreaterequal" => 67,
        "sv_depthlessequal" => 68,
        "sv_stencilref" => 69,
        "sv_innercoverage" => 70,
        _ => 0,
    }
}

fn positional_mask(m: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if m & (1 << i) != 0 { c } else { ' ' }).collect()
}

/// fxc's abbreviation of a `D3D_NAME` system value in signature tables.
fn system_value_abbrev(v: u32) -> String {
    match v {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 | 13 | 17..=19 => "TRIEDGE",
        12 | 14 => "QUADEDGE",
        15 | 16 => "QUADINT",
        20 => "TRIINT",
        21 => "LINEDET",
        22 => "LINEDEN",
        23 => "BARYCEN",
        24 => "SHDINGRT",
        25 => "CULLPRIM",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        other => return format!("SV{other}"),
    }
    .to_string()
}
