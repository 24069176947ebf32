//! Effect-file errors: one test per class, each checking the exact line and column (of the
//! offending key or value) and the message.

mod common;

use std::path::Path;

use dxbc_wgsl_build::compile;
use dxbc_wgsl_build::Effect;

const HEAD: &str = r#"[effect]
name = "E"

[axes]
fog = "bool"
mode = { values = ["a", "b"] }
"#;

const PASS: &str = r#"
[passes.main]
vertex = "Tiny_VS.dxbc"
pixel = "Tiny_PS.dxbc"
"#;

/// 1-based line and column of the `nth` occurrence of `needle` (counted independently of the
/// crate's own position code).
fn pos(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let at = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("`{needle}` not in text")).0;
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

/// Parses `text`, expects an error at the `nth` occurrence of `needle` whose message contains
/// `message`.
#[track_caller]
fn expect_at(text: &str, needle: &str, nth: usize, message: &str) {
    let err = Effect::parse(Path::new("fx/e.effect.toml"), text.to_string()).expect_err("the file should be rejected");
    let d = err.first().unwrap();
    assert_eq!(d.file, Path::new("fx/e.effect.toml"));
    assert_eq!((d.line, d.column), pos(text, needle, nth), "{d}");
    assert!(d.message.contains(message), "message `{}` lacks `{message}`", d.message);
    assert!(d.to_string().starts_with(&format!("fx/e.effect.toml:{}:{}: ", d.line, d.column)));
}

#[test]
fn toml_syntax() {
    let text = "[effect]\nname = \"E\"\nmode = [1, 2\n";
    let err = Effect::parse(Path::new("e.toml"), text.into()).unwrap_err();
    let d = err.first().unwrap();
    assert_eq!(d.line, 3, "{d}");
    assert!(d.message.starts_with("TOML syntax"), "{d}");
}

#[test]
fn unknown_top_level_key() {
    expect_at(&format!("{HEAD}[pases.main]\nvertex = \"x\"\n"), "pases", 0, "unknown key `pases`");
}

#[test]
fn unknown_key_in_a_table() {
    expect_at(
        &format!("[effect]\nname = \"E\"\nshaders = \"x\"\n{PASS}"),
        "shaders",
        0,
        "unknown key `shaders` in [effect]",
    );
}

#[test]
fn missing_effect_name() {
    expect_at(&format!("[effect]\ndescription = \"x\"\n{PASS}"), "[effect]", 0, "needs a `name`");
}

#[test]
fn effect_name_not_an_identifier() {
    expect_at(&format!("[effect]\nname = \"Basic Effect\"\n{PASS}"), "\"Basic Effect\"", 0, "must be an identifier");
}

#[test]
fn wrong_value_type() {
    expect_at(&format!("[effect]\nname = 3\n{PASS}"), "3", 0, "must be a string, found an integer");
}

#[test]
fn axis_type() {
    expect_at(
        &format!("[effect]\nname = \"E\"\n[axes]\nfog = \"boolean\"\n{PASS}"),
        "\"boolean\"",
        0,
        "not an axis type",
    );
}

#[test]
fn axis_default_not_a_value() {
    expect_at(
        &format!("[effect]\nname = \"E\"\n[axes]\nmode = {{ values = [\"a\", \"b\"], default = \"c\" }}\n{PASS}"),
        "\"c\"",
        0,
        "default `c` is not a value of axis `mode`",
    );
}

#[test]
fn axis_value_twice() {
    expect_at(
        &format!("[effect]\nname = \"E\"\n[axes]\nmode = [\"a\", \"b\", \"a\"]\n{PASS}"),
        "\"a\"",
        1,
        "lists value `a` twice",
    );
}

#[test]
fn exclude_unknown_axis() {
    expect_at(&format!("{HEAD}[permutations]\nexclude = [{{ fgo = true }}]\n{PASS}"), "fgo", 0, "no axis named `fgo`");
}

#[test]
fn exclude_value_of_the_wrong_kind() {
    expect_at(&format!("{HEAD}[permutations]\nexclude = [{{ fog = \"yes\" }}]\n{PASS}"), "\"yes\"", 0, "is a bool");
    expect_at(&format!("{HEAD}[permutations]\nexclude = [{{ mode = \"c\" }}]\n{PASS}"), "\"c\"", 0, "has no value `c`");
}

#[test]
fn exclusion_of_the_default() {
    expect_at(
        &format!("{HEAD}[permutations]\nexclude = [{{ mode = \"a\", fog = false }}]\n{PASS}"),
        "{ mode",
        0,
        "removes the default permutation",
    );
}

#[test]
fn field_type() {
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float5\" }}]\n{PASS}"),
        "\"float5\"",
        0,
        "dimensions must be 1 to 4",
    );
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"double\" }}]\n{PASS}"),
        "\"double\"",
        0,
        "not a constant-buffer type",
    );
}

#[test]
fn field_offset_syntax() {
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float\", offset = \"c1.q\" }}]\n{PASS}"),
        "\"c1.q\"",
        0,
        "component `q`",
    );
}

#[test]
fn field_offset_illegal_for_its_type() {
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"M\", type = \"float4x4\", offset = \"c2.y\" }}]\n{PASS}"),
        "\"c2.y\"",
        0,
        "must start at a register boundary",
    );
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"V\", type = \"float3\", offset = \"c2.z\" }}]\n{PASS}"),
        "\"c2.z\"",
        0,
        "would cross into the next register",
    );
}

#[test]
fn overlapping_fields() {
    let text = format!(
        "{HEAD}[layouts.L]\nfields = [\n  {{ name = \"A\", type = \"float4\", offset = \"c0\" }},\n  {{ name = \"B\", type = \"float\", offset = \"c0.w\" }},\n]\n{PASS}"
    );
    expect_at(&text, "\"c0.w\"", 0, "field `B` (float, c0.w..byte 16) overlaps field `A`");
}

#[test]
fn duplicate_field_name() {
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"Color\", type = \"float\" }}, {{ name = \"color\", type = \"float\" }}]\n{PASS}"),
        "\"color\"",
        0,
        "Rust field name `color`",
    );
}

#[test]
fn packing_on_a_vector() {
    expect_at(
        &format!(
            "{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float4\", packing = \"row_major\" }}]\n{PASS}"
        ),
        "\"row_major\"",
        0,
        "applies to matrices",
    );
}

#[test]
fn unknown_layout_reference() {
    expect_at(
        &format!("{HEAD}[layouts.Params]\nfields = [{{ name = \"A\", type = \"float4\" }}]\n[cbuffers.P]\nregister = \"b0\"\nlayout = \"Parms\"\n{PASS}"),
        "\"Parms\"",
        0,
        "no layout named `Parms` (declared layouts: Params)",
    );
}

#[test]
fn cbuffer_register() {
    expect_at(
        &format!("{HEAD}[cbuffers.P]\nregister = \"t0\"\nfields = [{{ name = \"A\", type = \"float4\" }}]\n{PASS}"),
        "\"t0\"",
        0,
        "register is `b#`",
    );
    expect_at(
        &format!("{HEAD}[cbuffers.P]\nregister = \"c0\"\nfields = [{{ name = \"A\", type = \"float4\" }}]\n{PASS}"),
        "\"c0\"",
        0,
        "not a D3D register",
    );
}

/// Without `layout`/`fields` the layout comes from the shaders' reflection; stand-in shaders
/// carry none (like DirectXTK's stripped blobs), so the buffer is reported at its key.
#[test]
fn cbuffer_without_layout() {
    expect_compile_at(
        &format!("[effect]\nname = \"E\"\n[cbuffers.P]\nregister = \"b0\"\n{PASS}"),
        "P]",
        0,
        "vertex shader Tiny_VS.dxbc binds b0 but carries no reflection (RDEF) to take the layout of constant buffer `P` from",
    );
}

#[test]
fn cbuffer_register_twice() {
    let text = format!(
        "{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float4\" }}]\n[cbuffers.P]\nregister = \"b0\"\nlayout = \"L\"\n[cbuffers.Q]\nregister = \"b0\"\nlayout = \"L\"\n{PASS}"
    );
    expect_at(&text, "\"b0\"", 1, "already bound to constant buffer `P`");
}

#[test]
fn resource_register_key() {
    expect_at(&format!("{HEAD}[resources]\nb0 = \"params\"\n{PASS}"), "b0", 0, "declared in [cbuffers.Name]");
    expect_at(&format!("{HEAD}[resources]\nx3 = \"thing\"\n{PASS}"), "x3", 0, "not a D3D register");
}

#[test]
fn resource_name_twice() {
    expect_at(
        &format!("{HEAD}[resources]\nt0 = \"tex\"\nt1 = \"tex\"\n{PASS}"),
        "t1",
        0,
        "`tex` already names another resource",
    );
}

#[test]
fn resource_name_not_an_identifier() {
    expect_at(
        &format!("{HEAD}[resources]\nt0 = \"Diffuse Map\"\n{PASS}"),
        "\"Diffuse Map\"",
        0,
        "snake_case Rust identifier",
    );
}

#[test]
fn unknown_vertex_format() {
    expect_at(
        &format!("{HEAD}[vertex_formats]\nNORMAL = \"float32x5\"\n{PASS}"),
        "\"float32x5\"",
        0,
        "unknown vertex format",
    );
}

#[test]
fn no_pass() {
    let err = Effect::parse(Path::new("e.toml"), HEAD.into()).unwrap_err();
    let d = err.first().unwrap();
    assert_eq!((d.line, d.column), (1, 1), "{d}");
    assert!(d.message.contains("declares no pass"), "{d}");
}

#[test]
fn pass_without_vertex_shader() {
    expect_at(&format!("{HEAD}[passes.main]\npixel = \"p.dxbc\"\n"), "main", 0, "needs a `vertex` shader");
}

#[test]
fn pattern_unknown_axis() {
    // The column is the substitution's inside the string.
    expect_at(&format!("{HEAD}[passes.main]\nvertex = \"VS{{fgo:NoFog}}.dxbc\"\n"), "fgo", 0, "no axis named `fgo`");
}

#[test]
fn pattern_bool_form_on_an_enum() {
    expect_at(&format!("{HEAD}[passes.main]\nvertex = \"VS{{mode:X}}.dxbc\"\n"), "mode:X", 0, "is an enumeration");
}

#[test]
fn rule_never_used() {
    let text = format!("{HEAD}[passes.main]\nvertex = [\n  {{ path = \"a.dxbc\" }},\n  {{ when = {{ fog = true }}, path = \"b.dxbc\" }},\n]\n");
    expect_at(&text, "{ when", 0, "this rule is never used: the rule on line 9");
}

#[test]
fn when_unknown_value() {
    let text = format!(
        "{HEAD}[passes.main]\nvertex = [{{ when = {{ mode = \"z\" }}, path = \"a.dxbc\" }}, {{ path = \"b.dxbc\" }}]\n"
    );
    expect_at(&text, "\"z\"", 0, "axis `mode` has no value `z`");
}

#[test]
fn unknown_stage_in_stages() {
    expect_at(
        &format!("{HEAD}[resources]\nt0 = {{ name = \"tex\", stages = [\"fragment\"] }}\n{PASS}"),
        "\"fragment\"",
        0,
        "unknown stage `fragment`",
    );
}

// ---- Errors found when the shaders are loaded (stand-in shaders, fake translator) ----

/// Writes `text` and the stand-in shaders into a temporary folder and compiles it.
fn compile_err(text: &str) -> (String, dxbc_wgsl_build::Diagnostic) {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    for f in ["Tiny_GS.dxbc", "Tiny_GSLines.dxbc", "Bare_VS.dxbc", "Bare_PS.dxbc"] {
        std::fs::write(dir.path().join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let path = dir.path().join("e.effect.toml");
    std::fs::write(&path, text).unwrap();
    let effect = Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let err = compile::compile(effect, &mut common::FakeTranslator::default()).expect_err("should fail");
    (text.to_string(), err.first().unwrap().clone())
}

#[track_caller]
fn expect_compile_at(text: &str, needle: &str, nth: usize, message: &str) {
    let (text, d) = compile_err(text);
    assert_eq!((d.line, d.column), pos(&text, needle, nth), "{d}");
    assert!(d.message.contains(message), "message `{}` lacks `{message}`", d.message);
}

const TINY_LAYOUT: &str = r#"
[layouts.P]
fields = [{ name = "M", type = "float4x4" }, { name = "N", type = "float4x4" }]
[cbuffers.P]
register = "b0"
layout = "P"
"#;

/// Every diagnostic of compiling `text` (with the stand-in shaders).
fn compile_all(text: &str) -> Vec<dxbc_wgsl_build::Diagnostic> {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    let path = dir.path().join("e.effect.toml");
    std::fs::write(&path, text).unwrap();
    let effect = Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    match compile::compile(effect, &mut common::FakeTranslator::default()) {
        Ok(_) => Vec::new(),
        Err(e) => e.0,
    }
}

#[test]
fn cbuffer_larger_than_its_layout() {
    // Tiny_VS declares 128 bytes; a 64-byte layout is too small. At the layout's last field,
    // named with the effect, the shader and both sizes.
    let text = format!(
        "[effect]\nname = \"E\"\n[layouts.P]\nfields = [{{ name = \"M\", type = \"float4x4\" }}]\n[cbuffers.P]\nregister = \"b0\"\nlayout = \"P\"\n{PASS}"
    );
    expect_compile_at(
        &text,
        "\"M\"",
        0,
        "effect E: constant buffer `P` (b0) is declared as 128 bytes (8 registers) by shader Tiny_VS.dxbc, but layout \
         `P` covers only 64 bytes (4 registers), ending with `M` (float4x4 at c0, bytes 0–64)",
    );
}

/// The tiny effect (`tests/common`: four vertex shaders and four pixel shaders bind `Parameters`
/// at b0; the largest, Tiny_VSLit, declares 176 bytes, the layout's size) with `fields` edited.
fn tiny_with(edit: impl Fn(&str) -> String) -> String {
    let text = edit(common::TINY_EFFECT);
    assert_ne!(text, common::TINY_EFFECT, "the edit applies");
    text
}

const NORMALS: &str = r#"    { name = "Normals", type = "float3x3", packing = "row_major", doc = "Normal matrix." },
"#;

#[test]
fn a_layout_with_an_extra_trailing_field_is_an_error_at_that_field_once() {
    // A float4 after the last field: past the end of b0 as every shader declares it. One
    // diagnostic for the effect and layout, not one per binding shader.
    let text = tiny_with(|t| t.replace(NORMALS, &format!("{NORMALS}    {{ name = \"Extra\", type = \"float4\" }},\n")));
    let all = compile_all(&text);
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = &all[0];
    assert_eq!((d.line, d.column), pos(&text, "\"Extra\"", 0), "{d}");
    assert!(
        d.message.contains(
            "field `Extra` (float4 at c11, bytes 176–192) of layout `Parameters` starts at c11, past the end \
             of constant buffer `Parameters` (b0) as every shader binding it declares it: 176 bytes (11 registers, \
             shader Tiny_VSLit.dxbc"
        ),
        "{d}"
    );
    assert!(d.message.contains("`allow_larger = true` in [cbuffers.Parameters]"), "{d}");
}

#[test]
fn a_layout_with_a_shifted_field_names_the_field_where_the_offsets_part_once() {
    // A float4 inserted after WorldViewProj shifts Normals by one register, so that the layout
    // ends 12 bytes past the shaders' buffers: the error is at the field that crosses their end.
    let text = tiny_with(|t| {
        t.replace(
            "    { name = \"WorldViewProj\", type = \"float4x4\", offset = \"c4\" },\n",
            "    { name = \"WorldViewProj\", type = \"float4x4\", offset = \"c4\" },\n    { name = \"Inserted\", type = \"float4\" },\n",
        )
    });
    let all = compile_all(&text);
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = &all[0];
    assert_eq!((d.line, d.column), pos(&text, "\"Normals\"", 0), "{d}");
    assert!(
        d.message.contains(
            "field `Normals` (float3x3 at c9, bytes 144–188) of layout `Parameters` reaches 12 bytes past the \
             end of constant buffer `Parameters` (b0)"
        ),
        "{d}"
    );
    assert!(d.message.contains("the layout's offsets part from the shaders' at `Normals` or before it"), "{d}");
}

#[test]
fn a_layout_two_buffers_share_is_reported_once() {
    // The vertex shaders' b0 and the pixel shaders' b0 are two buffers of one layout: one
    // diagnostic for the layout.
    let text = tiny_with(|t| {
        t.replace(NORMALS, &format!("{NORMALS}    {{ name = \"Extra\", type = \"float4\" }},\n")).replace(
            "[cbuffers.Parameters]\nregister = \"b0\"\nlayout = \"Parameters\"\n",
            "[cbuffers.Parameters]\nregister = \"b0\"\nlayout = \"Parameters\"\nstages = [\"vertex\"]\n\
             [cbuffers.PixelParameters]\nregister = \"b0\"\nlayout = \"Parameters\"\nstages = [\"pixel\"]\n",
        )
    });
    let all = compile_all(&text);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!((all[0].line, all[0].column), pos(&text, "\"Extra\"", 0), "{}", all[0]);
}

#[test]
fn allow_larger_accepts_a_layout_larger_than_the_shaders_declare() {
    for field in ["    { name = \"Extra\", type = \"float4\" },\n", "    { name = \"Extra\", type = \"float4x4\" },\n"]
    {
        let text = tiny_with(|t| {
            t.replace(NORMALS, &format!("{NORMALS}{field}")).replace(
                "[cbuffers.Parameters]\nregister = \"b0\"\n",
                "[cbuffers.Parameters]\nregister = \"b0\"\nallow_larger = true\n",
            )
        });
        let all = compile_all(&text);
        assert!(all.is_empty(), "{all:#?}");
    }
}

#[test]
fn a_layout_smaller_than_the_shaders_is_reported_once() {
    // Without Normals the layout ends at c7 (128 bytes); Tiny_VSLit and Tiny_VSLitNoFog declare
    // 176: one diagnostic, at WorldViewProj (the last field), naming the largest shader.
    let text = tiny_with(|t| t.replace(NORMALS, ""));
    let all = compile_all(&text);
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = &all[0];
    // (At the field's `offset`, which places it.)
    assert_eq!((d.line, d.column), pos(&text, "\"c4\"", 0), "{d}");
    assert!(
        d.message.contains(
            "is declared as 176 bytes (11 registers) by shader Tiny_VSLit.dxbc and 1 other shader, but layout \
             `Parameters` covers only 128 bytes (8 registers), ending with `WorldViewProj`"
        ),
        "{d}"
    );
}

#[test]
fn allow_larger_is_for_declared_layouts() {
    let text = format!("[effect]\nname = \"E\"\n[cbuffers.P]\nregister = \"b0\"\nallow_larger = true\n{PASS}");
    expect_at(&text, "true", 0, "`allow_larger` applies to declared layouts");
}

#[test]
fn a_link_mistake_is_reported_once_per_pass_and_input() {
    // With the pixel shader always a fog one, the three NoFog permutations pair a vertex shader
    // that does not write COLOR1 with a pixel shader that reads it: one diagnostic, counting the
    // other two pairs.
    let text = tiny_with(|t| {
        t.replace("pixel = \"Tiny_PS{texture:Tx}{fog::NoFog}.dxbc\"", "pixel = \"Tiny_PS{texture:Tx}.dxbc\"")
    });
    let all = compile_all(&text);
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = &all[0];
    assert!(d.message.contains("reads COLOR1 (v1) but vertex shader"), "{d}");
    assert!(d.message.contains("(and in 2 more vertex/pixel shader pairs of the pass)"), "{d}");
}

#[test]
fn cbuffer_not_declared() {
    expect_compile_at(
        &format!("[effect]\nname = \"E\"\n{PASS}"),
        "\"Tiny_VS.dxbc\"",
        0,
        "declares no [cbuffers] entry",
    );
}

#[test]
fn pixel_input_not_written_by_the_vertex_shader() {
    // Tiny_PS reads COLOR1 (fog), which Tiny_VSNoFog does not write.
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VSNoFog.dxbc\"\npixel = \"Tiny_PS.dxbc\"\n");
    expect_compile_at(
        &text,
        "\"Tiny_PS.dxbc\"",
        0,
        "pixel shader Tiny_PS.dxbc reads COLOR1 (v1) but vertex shader Tiny_VSNoFog.dxbc writes nothing at o1",
    );
}

#[test]
fn shader_of_the_wrong_stage() {
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_PS.dxbc\"\n");
    expect_compile_at(
        &text,
        "\"Tiny_PS.dxbc\"",
        0,
        "Tiny_PS.dxbc is a pixel shader, but pass `main` uses it as its vertex shader",
    );
}

#[test]
fn missing_shader_file_names_the_path() {
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VSMissing.dxbc\"\n");
    let (text, d) = compile_err(&text);
    assert_eq!((d.line, d.column), pos(&text, "\"Tiny_VSMissing.dxbc\"", 0), "{d}");
    assert!(
        d.message.contains("shader file not found: ")
            && d.message.ends_with("Tiny_VSMissing.dxbc (needed by the only permutation)"),
        "{d}"
    );
    // With axes: once per missing file (not per permutation), naming the first permutation.
    let text = format!("{HEAD}{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS{{fog:Missing}}.dxbc\"\n");
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    let path = dir.path().join("e.effect.toml");
    std::fs::write(&path, &text).unwrap();
    let errors = compile::compile(Effect::load(&path).unwrap(), &mut common::FakeTranslator::default()).unwrap_err();
    let missing: Vec<_> = errors.iter().filter(|d| d.message.contains("not found")).collect();
    assert_eq!(missing.len(), 1, "{errors}");
    assert!(
        missing[0].message.contains("Tiny_VSMissing.dxbc (needed by permutation fog=true, mode=a); a combination"),
        "{errors}"
    );
}

#[test]
fn missing_shader_dir_is_one_error_at_the_key() {
    let text = format!("[effect]\nname = \"E\"\nshader_dir = \"blobz\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\npixel = \"Tiny_PS.dxbc\"\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.effect.toml");
    std::fs::write(&path, &text).unwrap();
    let errors = compile::compile(Effect::load(&path).unwrap(), &mut common::FakeTranslator::default()).unwrap_err();
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert_eq!((errors.0[0].line, errors.0[0].column), pos(&text, "\"blobz\"", 0));
    assert!(errors.0[0].message.starts_with("shader_dir: no folder "), "{errors}");
}

#[test]
fn no_rule_for_a_permutation() {
    let text = format!(
        "{HEAD}{TINY_LAYOUT}\n[passes.main]\nvertex = [{{ when = {{ fog = true }}, path = \"Tiny_VS.dxbc\" }}]\n"
    );
    expect_compile_at(&text, "vertex", 0, "no vertex shader rule matches the permutation fog=false, mode=a");
}

#[test]
fn vertex_format_override_unused_or_incompatible() {
    let base = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\n");
    expect_compile_at(
        &format!("{base}[vertex_formats]\nTEXCOORD3 = \"float32x2\"\n"),
        "TEXCOORD3",
        0,
        "no vertex shader of the effect reads TEXCOORD3",
    );
    expect_compile_at(
        &format!("{base}[vertex_formats]\nSV_Position = \"uint32x4\"\n"),
        "SV_Position",
        0,
        "reads SV_Position as vec4<f32>, which format uint32x4 cannot supply",
    );
}

#[test]
fn header_symbol_on_a_binary_file() {
    let text = format!(
        "[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = {{ path = \"Tiny_VS.dxbc\", symbol = \"g_VS\" }}\n"
    );
    expect_compile_at(&text, "\"Tiny_VS.dxbc\"", 0, "is a DXBC container, not a header");
}

#[test]
fn resource_name_for_an_unbound_register() {
    // The tiny vertex shader binds no texture: naming t1 (a typo for t0, say) is an error, not a
    // silently ignored key.
    let base = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\n");
    expect_compile_at(
        &format!("{base}[resources]\nt1 = \"texture\"\n"),
        "t1",
        0,
        "no shader of the effect binds t1 (named `texture` here)",
    );
}

/// Like the fake translator, but the pixel shaders declare their inputs `nointerpolation` (flat)
/// while the vertex shaders write perspective-interpolated outputs, as a D3D pair may.
struct FlatPixelInputs;

impl dxbc_wgsl_build::compile::Translator for FlatPixelInputs {
    fn translate(
        &mut self,
        shader: &dxbc_wgsl_build::effect::ShaderRef,
        _bytes: &[u8],
    ) -> Result<dxbc_wgsl_build::stage::StageInfo, dxbc_wgsl_build::compile::ShaderError> {
        let mut info = common::fake_info(&shader.label());
        let pixel = info.stage == dxbc_wgsl_build::effect::Stage::Pixel;
        let list = if pixel { &mut info.inputs } else { &mut info.outputs };
        for v in list.iter_mut().filter(|v| v.location.is_some()) {
            v.interpolation =
                Some(if pixel { dxbc_wgsl::Interpolation::Flat } else { dxbc_wgsl::Interpolation::Perspective });
        }
        Ok(info)
    }
}

#[test]
fn interpolation_mismatch_between_the_stages_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write_tiny(dir.path());
    let effect = Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let err =
        compile::compile(effect, &mut FlatPixelInputs).expect_err("a flat pixel input fed by a perspective output");
    let d = err.first().unwrap();
    assert!(d.message.contains("with flat interpolation") && d.message.contains("with perspective"), "{d}");
    // The same pair with matching interpolation compiles.
    let effect = Effect::load(&path).unwrap();
    compile::compile(effect, &mut common::FakeTranslator::default()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn too_many_permutations() {
    let axes: String = (0..13).map(|i| format!("a{i} = \"bool\"\n")).collect();
    let text =
        format!("[effect]\nname = \"E\"\n[axes]\n{axes}{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\n");
    let (_, d) = compile_err(&text);
    assert!(d.message.contains("more than 4096 combinations"), "{d}");
}

#[test]
fn layouts_past_a_constant_buffer_are_errors_not_wrapped_sizes() {
    // A length that would wrap 32-bit offsets (and made the generator allocate without bound).
    expect_at(
        &format!("{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float4[4294967295]\" }}]\n{PASS}"),
        "\"float4[4294967295]\"",
        0,
        "exceeds the 4096 registers",
    );
    // Each field fits, together they pass the 4096 registers (65,536 bytes) of a constant buffer.
    expect_at(
        &format!(
            "{HEAD}[layouts.L]\nfields = [{{ name = \"A\", type = \"float4[4000]\" }}, {{ name = \"B\", type = \"float4[97]\" }}]\n{PASS}"
        ),
        "\"B\"",
        0,
        "ends past byte 65536",
    );
}

#[test]
fn view_format_errors() {
    let text = format!("{HEAD}\n[view_formats]\nu0 = \"rgba8unrm\"\n{PASS}");
    expect_at(&text, "\"rgba8unrm\"", 0, "unknown texel format `rgba8unrm`");
    let text = format!("{HEAD}\n[view_formats]\nt1 = \"rgba8unorm\"\n{PASS}");
    expect_at(&text, "\"rgba8unorm\"", 0, "typed Buffer SRVs (t#) support 32-bit-per-component formats only");
    let text = format!("{HEAD}\n[view_formats]\nu2 = \"B8G8R8A8_UNORM\"\n{PASS}");
    expect_at(&text, "\"B8G8R8A8_UNORM\"", 0, "`bgra8unorm-storage` feature");
    let text = format!("{HEAD}\n[view_formats]\ns1 = \"r32float\"\n{PASS}");
    expect_at(&text, "s1 =", 0, "typed Buffer SRVs (t#) and typed UAVs (u#)");
    let text = format!("{HEAD}\n[view_formats]\nu1 = \"r32float\"\nu1_ = 1\n{PASS}");
    expect_at(&text, "u1_", 0, "is not a D3D register");
}

#[test]
fn texture2dms_view_errors() {
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = \"single\"\n{PASS}");
    expect_at(&text, "\"single\"", 0, "unknown Texture2DMS view `single` (single_sampled");
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = {{ view = \"one_sample\", stages = [\"pixel\"] }}\n{PASS}");
    expect_at(&text, "\"one_sample\"", 0, "unknown Texture2DMS view `one_sample`");
    let text = format!("{HEAD}\n[texture2dms_views]\nu0 = \"single_sampled\"\n{PASS}");
    expect_at(&text, "u0 =", 0, "Texture2DMS SRVs (t#)");
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = 1\n{PASS}");
    expect_at(&text, "1\n", 0, "a Texture2DMS view is a string");
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = {{ stages = [\"pixel\"] }}\n{PASS}");
    expect_at(&text, "t0 =", 0, "view");
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = {{ view = \"multisampled\", sample = 1 }}\n{PASS}");
    expect_at(&text, "sample = 1", 0, "unknown key `sample`");
    let text = format!("{HEAD}\n[texture2dms_views]\nt0 = \"single_sampled\"\nT0 = \"multisampled\"\n{PASS}");
    expect_at(&text, "T0 =", 0, "the view of T0 is already given on line");
    let text = format!("{HEAD}\n[texture2dms_views]\n\"t0,space1\" = {{ view = \"multisampled\", space = 1 }}\n{PASS}");
    expect_at(&text, "\"t0,space1\"", 0, "the space is given twice");
}

#[test]
fn texture2dms_views_are_keyed_by_register_space_and_stage() {
    let text = format!(
        "{HEAD}\n[texture2dms_views]\nt0 = \"single_sampled\"\n\"t0,space1\" = \"multisampled\"\n\
         t2 = {{ view = \"single_sampled\", space = 3, stages = [\"pixel\"] }}\n{PASS}"
    );
    let e = Effect::parse(Path::new("fx/e.effect.toml"), text).expect("parses");
    let settings: Vec<String> = e.texture2dms_views.iter().map(|v| v.setting()).collect();
    assert_eq!(settings, ["t0=single_sampled", "t0,space1=multisampled", "t2,space3=single_sampled"]);
    // Each stage's shader gets the settings for its stage, after its view formats.
    let vertex = e.shader_for(&e.passes[0].vertex, &[0, 0]).expect("vertex shader");
    assert_eq!(vertex.view_formats, ["t0=single_sampled", "t0,space1=multisampled"]);
    let pixel = e.shader_for(e.passes[0].pixel.as_ref().unwrap(), &[0, 0]).expect("pixel shader");
    assert_eq!(pixel.view_formats, ["t0=single_sampled", "t0,space1=multisampled", "t2,space3=single_sampled"]);
    let options = compile::translate_options(&pixel).expect("options");
    assert_eq!(options.texture2dms_views.len(), 3);
}

#[test]
fn texture2dms_view_of_no_2d_texture_applies_to_nothing() {
    let text = format!("{}\n[texture2dms_views]\nt5 = \"single_sampled\"\n", common::TINY_EFFECT);
    let (text, d) = compile_err(&text);
    assert_eq!((d.line, d.column), pos(&text, "t5 = \"single_sampled\"", 0), "{d}");
    assert!(d.message.contains("declares a 2D texture at t5"), "{d}");
}

#[test]
fn compute_pass_errors() {
    let text = format!("{HEAD}\n[passes.mips]\ncompute = \"CS.dxbc\"\ntopology = \"POINTLIST\"\n");
    expect_at(&text, "topology", 0, "is a compute pass: `topology` applies to render passes");
    // An effect may mix render and compute passes; a compute pass beside render passes still
    // refuses render states, and a render pass beside compute passes still needs its vertex shader.
    let text = format!("{HEAD}{PASS}\n[passes.mips]\ncompute = \"CS.dxbc\"\n");
    let e = Effect::parse(Path::new("fx/e.effect.toml"), text).expect("render and compute passes mix");
    let kinds: Vec<(&str, bool)> = e.passes.iter().map(|p| (p.name.as_str(), p.is_compute())).collect();
    assert_eq!(kinds, [("main", false), ("mips", true)]);
    let text = format!("{HEAD}{PASS}\n[passes.mips]\ncompute = \"CS.dxbc\"\nblend = {{ blend_enable = true }}\n");
    expect_at(&text, "blend", 0, "is a compute pass: `blend` applies to render passes");
    let text = format!("{HEAD}\n[passes.mips]\ncompute = \"CS.dxbc\"\n[passes.draw]\npixel = \"PS.dxbc\"\n");
    expect_at(&text, "draw", 0, "needs a `vertex` shader (or a `compute` shader, for a compute pass)");
}

#[test]
fn view_formats_are_keyed_by_register_and_space() {
    // The same register in two spaces is two views.
    let text = format!(
        "{HEAD}\n[view_formats]\nu1 = \"r32float\"\nu2 = {{ format = \"r32uint\", space = 1 }}\nu3 = {{ format = \"rgba8unorm\", space = 0 }}\n{PASS}"
    );
    let e = Effect::parse(Path::new("fx/e.effect.toml"), text).expect("parses");
    let settings: Vec<String> = e.view_formats.iter().map(|v| v.setting()).collect();
    assert_eq!(settings, ["u1=r32float", "u2,space1=r32uint", "u3=rgba8unorm"]);
    // The same register in another space: the key names the space.
    let text = format!("{HEAD}\n[view_formats]\nu1 = \"r32float\"\n\"u1,space1\" = \"r32uint\"\n{PASS}");
    let e = Effect::parse(Path::new("fx/e.effect.toml"), text).expect("parses");
    let settings: Vec<String> = e.view_formats.iter().map(|v| v.setting()).collect();
    assert_eq!(settings, ["u1=r32float", "u1,space1=r32uint"]);
    let text = format!("{HEAD}\n[view_formats]\n\"u1,space1\" = \"r32uint\"\n\"u1 , space1\" = \"r32float\"\n{PASS}");
    expect_at(&text, "\"u1 , space1\"", 0, "already given");
    let text = format!("{HEAD}\n[view_formats]\n\"u1,space1\" = {{ format = \"r32uint\", space = 1 }}\n{PASS}");
    expect_at(&text, "\"u1,space1\"", 0, "the space is given twice");
    let text = format!("{HEAD}\n[view_formats]\n\"u1,spade1\" = \"r32uint\"\n{PASS}");
    expect_at(&text, "\"u1,spade1\"", 0, "expected a register and a space");
    let text = format!("{HEAD}\n[view_formats]\nu1 = {{ format = \"r32uint\", space = \"one\" }}\n{PASS}");
    expect_at(&text, "\"one\"", 0, "space");
}

#[test]
fn technique_errors() {
    let text = format!("{HEAD}{PASS}\n[techniques.t]\npasses = [\"main\", \"mian\"]\n");
    expect_at(&text, "\"mian\"", 0, "no pass named `mian` (passes: main)");
    let text = format!("{HEAD}{PASS}\n[techniques.t]\npasses = [\"main\", \"main\"]\n");
    expect_at(&text, "\"main\"", 1, "pass `main` is listed twice");
    let text = format!("{HEAD}{PASS}\n[techniques.t]\npasses = []\n");
    expect_at(&text, "[]", 0, "lists no pass");
    let text = format!("{HEAD}{PASS}\n[techniques.t]\ndoc = \"x\"\n");
    expect_at(&text, "t]\ndoc", 0, "needs a `passes` key");
    let text = format!("{HEAD}{PASS}\n[techniques.Main]\npasses = [\"main\"]\n");
    expect_at(&text, "Main]", 0, "technique name `Main` must be a snake_case Rust identifier");
    let text = format!("{HEAD}{PASS}\n[techniques.t]\npasses = [\"main\"]\npass = 1\n");
    expect_at(&text, "pass =", 0, "unknown key `pass`");
}

#[test]
fn constant_buffer_for_an_unbound_register() {
    // A declared constant buffer at a register no shader binds (b3 for b0, say) is an error.
    let base = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\n");
    expect_compile_at(
        &format!("{base}[cbuffers.Extra]\nregister = \"b3\"\nfields = [{{ name = \"A\", type = \"float4\" }}]\n"),
        "Extra]",
        0,
        "no shader of the effect binds b3 (constant buffer `Extra` here)",
    );
    // Declared for the pixel stage, which no shader of this effect has.
    expect_compile_at(
        &format!("{base}[cbuffers.Q]\nregister = \"b1\"\nlayout = \"P\"\nstages = [\"pixel\"]\n"),
        "Q]",
        0,
        "no shader of the effect (pixel) binds b1 (constant buffer `Q` here)",
    );
}

#[test]
fn rust_names_that_collide_or_are_keywords() {
    let text = format!("{HEAD}{PASS}\n[techniques.a_b]\npasses = [\"main\"]\n[techniques.a__b]\npasses = [\"main\"]\n");
    expect_at(&text, "a__b]", 0, "technique `a__b` has the same Rust name `AB` as the technique on line");
    let text = format!("{HEAD}{PASS}\n[techniques.v1]\npasses = [\"main\"]\n[techniques._1]\npasses = [\"main\"]\n");
    expect_at(&text, "_1]", 0, "has the same Rust name `V1`");
    let text = format!("{HEAD}{PASS}\n[passes.a_b]\nvertex = \"V.dxbc\"\n[passes.a__b]\nvertex = \"V.dxbc\"\n");
    expect_at(&text, "a__b]", 0, "pass `a__b` has the same Rust name `AB` as the pass on line");
    let text = format!("{HEAD}{PASS}\n[techniques.self_]\npasses = [\"main\"]\n");
    expect_at(&text, "self_]", 0, "would become the Rust name `Self`");
    let text = format!("{HEAD}\n[passes.self_]\nvertex = \"V.dxbc\"\n");
    expect_at(&text, "self_]", 0, "would become the Rust name `Self`");
    let text = HEAD.replace("values = [\"a\", \"b\"]", "values = [\"self_\", \"b\"]") + PASS;
    expect_at(&text, "\"self_\"", 0, "would become the Rust name `Self`");
    let text = HEAD.replace("fog = \"bool\"", "self_ = \"bool\"") + PASS;
    expect_at(&text, "self_ =", 0, "would become the Rust type `Self`");
}

#[test]
fn a_register_named_twice() {
    let text = format!("{HEAD}[resources]\nt0 = \"texture\"\n\"T00\" = \"other\"\n{PASS}");
    expect_at(&text, "\"T00\"", 0, "t0 is already named `texture` on line");
    // Per stage it is fine.
    let text = format!(
        "{HEAD}[resources]\nt0 = {{ name = \"a\", stages = [\"vertex\"] }}\n\"t0 \" = {{ name = \"b\", stages = [\"pixel\"] }}\n{PASS}"
    );
    assert!(Effect::parse(Path::new("fx/e.effect.toml"), text).is_ok());
}

#[test]
fn alpha_to_coverage_needs_a_pixel_shader() {
    let text = format!(
        "[effect]\nname = \"E\"\n{TINY_LAYOUT}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\nblend = {{ alpha_to_coverage = true }}\n"
    );
    expect_compile_at(&text, "main]", 0, "enables alpha_to_coverage, but the pass has no pixel shader");
}

#[test]
fn view_format_on_a_texture_srv_applies_to_nothing() {
    // The tiny pixel shader samples a Texture2D at t0: its format is the view's.
    let text = format!("{}\n[view_formats]\nt0 = \"r32float\"\n", common::TINY_EFFECT);
    let (text, d) = compile_err(&text);
    assert_eq!((d.line, d.column), pos(&text, "t0 = \"r32float\"", 0), "{d}");
    assert!(d.message.contains("declares a typed Buffer or typed UAV at t0"), "{d}");
}

/// A view format given for other stages than the shader's: the refusal says which entry and
/// what to add (DirectXTK12's GenerateMips, a compute shader with a typed UAV at u0).
#[test]
fn view_format_for_other_stages_says_so() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/directxtk12/GenerateMips");
    let text = format!(
        "[effect]\nname = \"E\"\nshader_dir = {:?}\n\n[layouts.C]\nfields = [{{ name = \"A\", type = \"float4\" }}]\n\
         [cbuffers.C]\nregister = \"b0\"\nlayout = \"C\"\n\n[view_formats]\nu0 = {{ format = \"rgba8unorm\", stages = [\"pixel\"] }}\n\n\
         [passes.main]\ncompute = \"GenerateMips_main.dxbc\"\n",
        dir.to_string_lossy()
    );
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("e.effect.toml");
    std::fs::write(&path, &text).unwrap();
    let errors = compile::compile(Effect::load(&path).unwrap(), &mut compile::DirectTranslator).unwrap_err();
    let d = errors.first().unwrap();
    assert!(
        d.message.contains(
            "the [view_formats] entry for u0 on line 12 applies to pixel only: add \"compute\" to its `stages`"
        ),
        "{errors}"
    );
}

#[test]
fn one_register_named_per_stage_with_an_array() {
    let text = format!(
        "{HEAD}[resources]\nt1 = [{{ name = \"texture\", stages = [\"pixel\"] }}, {{ name = \"blocks\", stages = [\"vertex\"] }}]\n{PASS}"
    );
    let e = Effect::parse(Path::new("fx/e.effect.toml"), text).expect("parses");
    let named: Vec<(&str, u32)> = e.resources.iter().map(|r| (r.name.as_str(), r.slot)).collect();
    assert_eq!(named, [("texture", 1), ("blocks", 1)]);
    // Overlapping stages within the array: the second is refused.
    let text = format!("{HEAD}[resources]\nt1 = [\"texture\", {{ name = \"blocks\", stages = [\"vertex\"] }}]\n{PASS}");
    expect_at(&text, "t1 =", 0, "t1 is already named `texture`");
    let text = format!("{HEAD}[resources]\nt1 = []\n{PASS}");
    expect_at(&text, "[]", 0, "an empty array names nothing");
}

#[test]
fn verify_checksum_not_a_bool() {
    expect_at(
        &format!("[effect]\nname = \"E\"\nverify_checksum = \"no\"\n{PASS}"),
        "\"no\"",
        0,
        "`verify_checksum` must be true or false",
    );
}

// ---- Passes with a geometry shader ----

const GS_PASS: &str = r#"
[passes.main]
vertex = "Tiny_VS.dxbc"
geometry = "Tiny_GS.dxbc"
pixel = "Tiny_PS.dxbc"
topology = "POINTLIST"
"#;

#[test]
fn a_geometry_stage_in_a_compute_pass() {
    expect_at(
        &format!("{HEAD}[passes.main]\ncompute = \"CS.dxbc\"\ngeometry = \"GS.dxbc\"\n"),
        "geometry",
        0,
        "[passes.main] is a compute pass: `geometry` applies to render passes",
    );
}

#[test]
fn draw_topologies_of_a_geometry_pass() {
    let with = |t: &str| GS_PASS.replace("\"POINTLIST\"", &format!("\"{t}\""));
    // Every D3D11 name, with or without underscores and prefix, parses.
    for ok in
        ["triangle_strip_adj", "LINELIST_ADJ", "D3D11_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST", "patch_list_32"]
    {
        Effect::parse(Path::new("e.toml"), format!("{HEAD}{}", with(ok))).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for bad in ["TRIANGLEFAN", "patch_list_33", "PATCH_LIST_0", "UNDEFINED"] {
        let text = format!("{HEAD}{}", with(bad));
        let message = if bad == "UNDEFINED" { "a pass needs a topology" } else { "is not a D3D11_PRIMITIVE_TOPOLOGY_" };
        expect_at(&text, &format!("\"{bad}\""), 0, message);
    }
}

#[test]
fn adjacency_without_a_geometry_shader() {
    let text = format!("{HEAD}{PASS}topology = \"triangle_list_adj\"\n");
    expect_at(&text, "\"triangle_list_adj\"", 0, "add the pass's `geometry` shader");
    let text = format!("{HEAD}{PASS}topology = \"4_CONTROL_POINT_PATCHLIST\"\n");
    expect_at(&text, "\"4_CONTROL_POINT_PATCHLIST\"", 0, "patch lists feed tessellation");
}

#[test]
fn instance_data_entries() {
    expect_at(&format!("{HEAD}[instance_data]\nTEXCOORD = \"x\"\n{PASS}"), "\"x\"", 0, "its step rate");
    expect_at(&format!("{HEAD}[instance_data]\nTEXCOORD = -1\n{PASS}"), "-1", 0, "a non-negative integer");
    expect_at(
        &format!("{HEAD}[instance_data]\nCOLOR = 1\ncolor = 2\n{PASS}"),
        "color",
        0,
        "already per-instance data on line",
    );
    expect_at(&format!("{HEAD}[instance_data]\n7 = 1\n{PASS}"), "7", 0, "is not a semantic");
}

#[test]
fn a_draw_topology_the_geometry_shader_does_not_read() {
    let text =
        format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}{}", GS_PASS.replace("\"POINTLIST\"", "\"TRIANGLESTRIP\""));
    expect_compile_at(
        &text,
        "\"TRIANGLESTRIP\"",
        0,
        "pass `main` draws TRIANGLESTRIP, but its geometry shader Tiny_GS.dxbc reads points (dcl_inputprimitive): the \
         pass's `topology` must be POINTLIST",
    );
    // Without `topology` the default (TRIANGLELIST) is named, at the geometry shader's rule.
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}{}", GS_PASS.replace("topology = \"POINTLIST\"\n", ""));
    expect_compile_at(&text, "\"Tiny_GS.dxbc\"", 0, "draws TRIANGLELIST (the default)");
}

#[test]
fn a_geometry_stage_given_another_stage_s_shader() {
    let text =
        format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}{}", GS_PASS.replace("\"Tiny_GS.dxbc\"", "\"Tiny_PS.dxbc\""));
    expect_compile_at(
        &text,
        "\"Tiny_PS.dxbc\"",
        0,
        "Tiny_PS.dxbc is a pixel shader, but pass `main` uses it as its geometry shader",
    );
}

#[test]
fn geometry_shader_inputs_the_vertex_shader_does_not_write() {
    let text =
        format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}{}", GS_PASS.replace("\"Tiny_VS.dxbc\"", "\"Bare_VS.dxbc\""));
    expect_compile_at(
        &text,
        "\"Tiny_GS.dxbc\"",
        0,
        "effect E, pass `main`: geometry shader Tiny_GS.dxbc reads COLOR (v[][0]) but vertex shader Bare_VS.dxbc writes \
         TEXCOORD at o0",
    );
}

#[test]
fn pixel_shader_inputs_the_geometry_shader_does_not_write() {
    let text =
        format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}{}", GS_PASS.replace("\"Tiny_PS.dxbc\"", "\"Bare_PS.dxbc\""));
    expect_compile_at(
        &text,
        "\"Bare_PS.dxbc\"",
        0,
        "effect E, pass `main`: pixel shader Bare_PS.dxbc (behind geometry) reads TEXCOORD (v0) but geometry shader \
         Tiny_GS.dxbc writes COLOR at o0",
    );
}

#[test]
fn instance_data_a_render_pass_would_read() {
    // Tiny_VS reads SV_Position; the pass draws it without a geometry shader.
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}[instance_data]\nSV_Position = 1\n{PASS}");
    expect_compile_at(
        &text,
        "SV_Position = 1",
        0,
        "SV_Position is per-instance data, but pass `main` draws vertex shader Tiny_VS.dxbc without a geometry shader",
    );
    let text = format!("[effect]\nname = \"E\"\n{TINY_LAYOUT}[instance_data]\nBLENDWEIGHT = 1\n{GS_PASS}");
    expect_compile_at(&text, "BLENDWEIGHT", 0, "no vertex shader of the effect reads BLENDWEIGHT");
}

#[test]
fn depth_bias_with_a_geometry_shader_that_emits_lines() {
    let text = format!(
        "[effect]\nname = \"E\"\n{TINY_LAYOUT}{}rasterizer = {{ depth_bias = 4 }}\n",
        GS_PASS.replace("\"Tiny_GS.dxbc\"", "\"Tiny_GSLines.dxbc\"").replace("\"POINTLIST\"", "\"LINELIST\"")
    );
    expect_compile_at(
        &text,
        "\"Tiny_GSLines.dxbc\"",
        0,
        "outputs line strips, and WebGPU applies depth bias to triangles",
    );
}

#[test]
fn a_stage_type_that_collides_with_a_layout() {
    let text = format!(
        "[effect]\nname = \"E\"\n[layouts.MainStage]\nfields = [{{ name = \"M\", type = \"float4x4\" }}, {{ name = \"N\", type = \"float4x4\" }}]\n\
         [cbuffers.P]\nregister = \"b0\"\nlayout = \"MainStage\"\n{GS_PASS}"
    );
    expect_compile_at(
        &text,
        "MainStage]",
        0,
        "layout `MainStage` would generate struct `MainStage`, which is already a pass type",
    );
}

/// A pass with a geometry shader compiles into the four shaders of its variant, the vertex
/// shader's pulling taken from its inputs (and `[vertex_formats]`), with records as wide as the
/// geometry shader reads.
#[test]
fn a_geometry_pass_compiles_into_its_four_shaders() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write_tiny_geometry(dir.path());
    struct Recording(Vec<dxbc_wgsl_build::effect::ShaderRef>);
    impl compile::Translator for Recording {
        fn translate(
            &mut self,
            shader: &dxbc_wgsl_build::effect::ShaderRef,
            _: &[u8],
        ) -> Result<dxbc_wgsl_build::StageInfo, compile::ShaderError> {
            self.0.push(shader.clone());
            Ok(common::fake_info(&shader.label()))
        }
    }
    let mut t = Recording(Vec::new());
    let compiled = compile::compile(Effect::load(&path).unwrap(), &mut t).unwrap_or_else(|e| panic!("{e}"));
    // The default permutation (fog on, flat, no texture).
    let default = compiled.permutations.iter().position(|p| *p == [1, 0, 0]).unwrap();
    let v = compiled.passes[0][default];
    let g = v.geometry.expect("pass `main` has a geometry shader");
    let label = |i: usize| compiled.shaders[i].labels[0].as_str();
    assert_eq!(label(v.vertex), "Tiny_VS.dxbc (vertex pulling)");
    assert_eq!(label(g.geometry), "Tiny_GS.dxbc");
    assert_eq!(label(g.draw_vertex), "Tiny_GS.dxbc (draw vertex shader)");
    assert_eq!(label(v.pixel.unwrap()), "Tiny_PS.dxbc (behind geometry)");
    let pulled: Vec<_> =
        t.0.iter()
            .filter_map(|r| match &r.role {
                dxbc_wgsl_build::effect::ShaderRole::PulledVertex(p) => Some((r.label(), p.clone())),
                _ => None,
            })
            .collect();
    let (_, p) = pulled.iter().find(|(l, _)| l.starts_with("Tiny_VS.dxbc")).unwrap();
    assert_eq!(p.record_registers, 4);
    assert_eq!(p.strides, [12]);
    assert_eq!(p.elements.len(), 1);
    assert_eq!((p.elements[0].register, p.elements[0].format.webgpu_name()), (0, "float32x3".to_string()));
    // The lit vertex shader's COLOR is per-instance data in slot 1.
    let (_, lit) = pulled.iter().find(|(l, _)| l.starts_with("Tiny_VSLit.dxbc")).unwrap();
    let color = lit.elements.iter().find(|e| e.register == 2).unwrap();
    assert_eq!((color.slot, color.offset, color.instance_step_rate), (1, 0, Some(1)));
    assert_eq!(lit.strides, [24, 4]);
    // The plain vertex shader is translated once for its inputs, and used by the render pass.
    let plain = compiled.passes[2][0];
    assert!(plain.geometry.is_none());
    assert_eq!(label(plain.vertex), "Tiny_VS.dxbc");
}

// ---- Stream-output declarations (`[passes.NAME.stream_output]`, D3D11.3 §14.4) ----

/// A pass streaming out without a geometry shader, with the declaration `decl`.
fn so_pass(decl: &str) -> String {
    format!("{HEAD}\n[passes.main]\nvertex = \"Tiny_VS.dxbc\"\ntopology = \"point_list\"\n\n[passes.main.stream_output]\n{decl}")
}

#[test]
fn stream_output_unknown_key() {
    let text = so_pass("entries = [{ semantic = \"POSITION\", component_count = 4 }]\nstride = [16]\n");
    expect_at(&text, "stride", 0, "unknown key `stride` in [passes.main.stream_output]");
}

#[test]
fn stream_output_without_entries() {
    expect_at(&so_pass("strides = [16]\n"), "stream_output", 0, "needs `entries`");
    expect_at(&so_pass("entries = []\n"), "[]", 0, "`entries` is empty");
}

#[test]
fn stream_output_entry_with_a_gap_and_a_semantic() {
    let text = so_pass("entries = [{ semantic = \"POSITION\", gap = 2 }]\n");
    expect_at(&text, "semantic", 0, "has both `semantic` and `gap`");
}

#[test]
fn stream_output_entry_without_component_count() {
    let text = so_pass("entries = [{ semantic = \"POSITION\", slot = 1 }]\n");
    expect_at(&text, "{ semantic", 0, "entry 0 of [passes.main.stream_output] needs `component_count`");
}

#[test]
fn stream_output_components_past_the_register() {
    let text = so_pass("entries = [{ semantic = \"POSITION\", start_component = 2, component_count = 3 }]\n");
    expect_at(&text, "{ semantic", 0, "components 2..5 are not within one register's 4");
}

#[test]
fn stream_output_stream_and_slot_ranges() {
    let text = so_pass("entries = [{ semantic = \"POSITION\", component_count = 4, stream = 4 }]\n");
    expect_at(&text, "4 }", 0, "`stream` is 4");
    let text = so_pass("entries = [{ semantic = \"POSITION\", component_count = 4, slot = 7 }]\n");
    expect_at(&text, "7 }", 0, "`slot` is 7");
    let text = so_pass("entries = [{ semantic = \"POSITION\", component_count = 4 }]\nrasterized_stream = 4\n");
    expect_at(&text, "4\n", 0, "`rasterized_stream` is 4");
    let text = so_pass("entries = [{ semantic = \"POSITION\", component_count = 4 }]\nrasterized_stream = \"all\"\n");
    expect_at(&text, "\"all\"", 0, "`rasterized_stream` must be a stream 0-3, or \"none\"");
}

#[test]
fn stream_output_gap_with_components() {
    let text = so_pass("entries = [{ gap = 2, component_count = 2 }]\n");
    expect_at(&text, "component_count", 0, "is a gap: `component_count` does not apply");
}

#[test]
fn stream_output_on_a_compute_pass() {
    let text = format!("{HEAD}\n[passes.main]\ncompute = \"Tiny_CS.dxbc\"\nstream_output = {{ entries = [] }}\n");
    expect_at(&text, "stream_output", 0, "is a compute pass: `stream_output` applies to render passes");
}
