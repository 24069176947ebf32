// Included (`include!`) by tests/build.rs, which generates structs for these buffers too, and by
// tests/bindings/rdef_layouts.rs: one table for both.

/// The variables of vkd3d's `register-reservations-numeric` test that its HLSL places with
/// `register(cN)` (in `$Globals`) or `packoffset(cN)` (in `cbuffer c`), transcribed from the
/// source (the `.shader_test` file of the corpus's vkd3d commit; no HLSL is stored in the
/// corpus): per shader section (the blob's `L<line>`), `(buffer, variable, packoffset)`. Only
/// the placed variables are listed: everything else is placed by the packing rules around them.
/// L0247's section is newer than the source we could read; its placement is the one its test
/// relies on (it writes c0, c1, c2 and expects the value written at c2).
/// `(buffer, variable, packoffset)`.
#[allow(dead_code)]
type Placement = (&'static str, &'static str, &'static str);

const SOURCE_PLACEMENTS: &[(&str, &[Placement])] = &[
    ("L0046", &[("$Globals", "b", "c0")]),     // float4 a; float4 b : register(c0);
    ("L0063", &[("$Globals", "b", "c1")]),     // float4 a[3]; float4 b[2] : register(c1);
    ("L0106", &[("$Globals", "a", "c2")]),     // float a : register(c2); float b;
    ("L0174", &[("$Globals", "apple", "c2")]), // struct { float2 a; float b; } apple : register(c2);
    ("L0227", &[("c", "a", "c1"), ("c", "b", "c2")]), // a : packoffset(c1); b : packoffset(c2) : register(c1)
    ("L0247", &[("c", "a", "c2")]),
    ("L0349", &[("$Globals", "a", "c1")]), // register (c[1 + 1 * 2 * 0])
    ("L0365", &[("$Globals", "a", "c1")]), // register (c0[1 + 1 * 2 * 0])
    ("L0381", &[("$Globals", "a", "c1")]), // register (c0[0.6 + 0.6]): truncated
    ("L0397", &[("$Globals", "a", "c1")]), // register (c0[true + false * true])
    ("L0413", &[("$Globals", "a", "c1")]), // register (c2[-1])
    ("L0468", &[("$Globals", "a", "c1")]), // register(c1manymanyletters)
];

/// The source placements of constant buffer `buffer` of corpus blob `path` (corpus-relative),
/// as byte offsets; empty for every blob outside the table.
#[allow(dead_code)]
fn source_placements(path: &str, buffer: &str) -> Vec<(String, u32)> {
    let Some(rest) = path.strip_prefix("vkd3d-shader-tests/register-reservations-numeric/") else {
        return Vec::new();
    };
    let section = rest.get(..5).unwrap_or("");
    SOURCE_PLACEMENTS
        .iter()
        .filter(|(s, _)| *s == section)
        .flat_map(|(_, p)| p.iter())
        .filter(|(b, _, _)| *b == buffer)
        .map(|(_, var, at)| {
            (var.to_string(), dxbc_wgsl_build::effect::layout::parse_offset(at).expect("a packoffset in the table"))
        })
        .collect()
}
