//! The reader over the whole real corpus: every blob is either read fully as a shader (container
//! with a verified checksum, program, signatures, RDEF, SFI0, STAT, IFCE, RTS0, the info view)
//! or classified as something else with a reason, and the classification agrees with the
//! corpus manifests. Also checks decoded reflection and root signatures against the values the
//! Wine and vkd3d test suites expect for their blobs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dxbc_wgsl::chunks::rdef::{CbufferKind, Dimension, InputType, ReturnType, VariableClass, VariableType};
use dxbc_wgsl::chunks::rts0::{RootParameterKind, Version, Visibility};
use dxbc_wgsl::chunks::{ifce, stat};
use dxbc_wgsl::classify::{classify, BlobKind};
use dxbc_wgsl::container::{Container, ReadOptions};
use dxbc_wgsl::{ReadError, Shader, ShaderStage};
use dxbc_wgsl_tests::corpus_dir;

fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        eprintln!("{test}: skipped: no corpus (set DXBC_WGSL_CORPUS or put it at ../shared/corpus)");
    }
    dir
}

/// Every file under `dir` with one of the extensions, sorted.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// What a manifest says about one blob.
#[derive(Debug, Default)]
struct Expected {
    kind: Option<String>,
    program_type: Option<u32>,
    /// `(major, minor)`.
    model: Option<(u8, u8)>,
    fx_version: Option<u32>,
}

fn parse_model(s: &str) -> Option<(u8, u8)> {
    // "5_0" or "ps_5_0".
    let mut parts = s.rsplit('_');
    let minor = parts.next()?.parse().ok()?;
    let major = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Manifest rows by path relative to the corpus root.
fn manifests(corpus: &Path) -> HashMap<String, Expected> {
    let mut map = HashMap::new();
    for m in files(corpus, &["jsonl"]).into_iter().filter(|p| p.file_name().is_some_and(|n| n == "manifest.jsonl")) {
        let folder = m.parent().unwrap().strip_prefix(corpus).unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&m).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}", m.display()));
            let path = match (v.get("path").and_then(|p| p.as_str()), v.get("file").and_then(|p| p.as_str())) {
                (Some(p), _) => p.to_string(),
                (None, Some(f)) => format!("{folder}/{f}"),
                _ => continue,
            };
            let e = Expected {
                kind: v.get("kind").and_then(|k| k.as_str()).map(str::to_string),
                program_type: v.get("program_type").and_then(|t| t.as_u64()).map(|t| t as u32),
                model: v.get("shader_model").and_then(|s| s.as_str()).and_then(parse_model),
                fx_version: v
                    .get("fx_version")
                    .and_then(|s| s.as_str())
                    .and_then(|s| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok()),
            };
            map.insert(path, e);
        }
    }
    map
}

fn stage_program_type(stage: ShaderStage) -> u32 {
    match stage {
        ShaderStage::Pixel => 0,
        ShaderStage::Vertex => 1,
        ShaderStage::Geometry => 2,
        ShaderStage::Hull => 3,
        ShaderStage::Domain => 4,
        ShaderStage::Compute => 5,
    }
}

/// Reads one shader blob whole; returns what went wrong.
fn read_shader(bytes: &[u8], stage: ShaderStage, major: u8, minor: u8) -> Result<(), String> {
    let shader = Shader::parse(bytes, &ReadOptions::default()).map_err(|e| format!("Shader::parse: {e}"))?;
    let v = shader.program.version;
    if (v.stage, v.major, v.minor) != (stage, major, minor) {
        return Err(format!("program version {v:?} differs from the classification"));
    }
    if shader.program.instructions.is_empty() {
        return Err("no instructions decoded".into());
    }
    for c in &shader.container.chunks {
        match &c.fourcc {
            b"STAT" => {
                stat::parse(c).map_err(|e| format!("STAT: {e}"))?;
            }
            b"IFCE" => {
                ifce::parse(c).map_err(|e| format!("IFCE: {e}"))?;
            }
            _ => {}
        }
    }
    if let Some(r) = &shader.reflection {
        if r.target.major != major || r.target.minor != minor {
            return Err(format!(
                "RDEF target {}.{} differs from the program's {major}.{minor}",
                r.target.major, r.target.minor
            ));
        }
    }
    let text = dxbc_wgsl::info::info(bytes).map_err(|e| format!("info: {e}"))?;
    if text.contains("error:") {
        return Err(format!("info reports an error:\n{text}"));
    }
    Ok(())
}

#[test]
fn every_corpus_blob_is_read_or_classified() {
    let Some(corpus) = corpus_or_skip("every_corpus_blob_is_read_or_classified") else {
        return;
    };
    let expected = manifests(&corpus);
    let mut failures = Vec::new();
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    let blobs = files(&corpus, &["dxbc", "fxo"]);
    for path in &blobs {
        let rel = path.strip_prefix(&corpus).unwrap().to_string_lossy().replace('\\', "/");
        let bytes = std::fs::read(path).unwrap();
        let class = classify(&bytes);
        *counts.entry(class.kind.name()).or_default() += 1;
        let mut fail = |msg: String| failures.push(format!("{rel}: {msg}"));
        if class.reason.trim().is_empty() {
            fail("classification without a reason".into());
        }
        if bytes.starts_with(b"DXBC") {
            if class.checksum_ok != Some(true) {
                fail(format!("checksum does not verify ({:?})", class.checksum_ok));
            }
            if let Err(e) = Container::parse(&bytes, &ReadOptions::default()) {
                fail(format!("container: {e}"));
            }
        }
        match class.kind {
            BlobKind::ShaderProgram { stage, major, minor } => {
                if let Err(e) = read_shader(&bytes, stage, major, minor) {
                    fail(e);
                }
            }
            _ => match Shader::parse(&bytes, &ReadOptions::default()) {
                Ok(_) => {
                    fail(format!("classified as {} ({}) but Shader::parse reads it", class.kind.name(), class.reason))
                }
                Err(ReadError::MissingChunk(_) | ReadError::BadMagic { .. }) => {}
                Err(e) => fail(format!("classified as {} but reading it fails oddly: {e}", class.kind.name())),
            },
        }
        if let BlobKind::RootSignature { .. } = class.kind {
            let c = Container::parse(&bytes, &ReadOptions::default()).unwrap();
            if let Err(e) = dxbc_wgsl::chunks::rts0::parse(c.chunk(b"RTS0").unwrap()) {
                fail(format!("RTS0: {e}"));
            }
        }
        if let Some(e) = expected.get(&rel) {
            let kind_ok = matches!(
                (e.kind.as_deref(), class.kind),
                (None, _)
                    | (Some("shader"), BlobKind::ShaderProgram { .. })
                    | (Some("effect"), BlobKind::Effect { .. })
                    | (Some("root_signature"), BlobKind::RootSignature { .. })
                    | (Some("other"), BlobKind::EffectExpression | BlobKind::Other)
            );
            if !kind_ok {
                fail(format!("manifest kind {:?}, classified {:?}: {}", e.kind, class.kind, class.reason));
            }
            if let BlobKind::ShaderProgram { stage, major, minor } = class.kind {
                if e.program_type.is_some_and(|t| t != stage_program_type(stage)) {
                    fail(format!("manifest program type {:?}, program says {stage:?}", e.program_type));
                }
                if e.model.is_some_and(|m| m != (major, minor)) {
                    fail(format!("manifest shader model {:?}, program says {major}.{minor}", e.model));
                }
            } else if e.program_type.is_some() {
                fail(format!("manifest program type {:?} but classified {:?}", e.program_type, class.kind));
            }
            if let Some(v) = e.fx_version {
                if !matches!(class.kind, BlobKind::Effect { version, .. } if version == v) {
                    fail(format!("manifest effect version {v:#x}, classified {:?}", class.kind));
                }
            }
        }
    }
    eprintln!("{} blobs: {counts:?}", blobs.len());
    assert!(counts.get("shader").copied().unwrap_or(0) > 0, "no shader programs found under {}", corpus.display());
    assert!(failures.is_empty(), "{} of {} blobs failed:\n{}", failures.len(), blobs.len(), failures.join("\n"));
}

fn read(corpus: &Path, rel: &str) -> Option<Vec<u8>> {
    let p = corpus.join(rel);
    match std::fs::read(&p) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("{rel}: not in this corpus; skipped");
            None
        }
    }
}

/// Wine's `test_reflection_constant_buffer` (d3dcompiler tests) expectations for its SM5 blob.
#[test]
fn rdef_matches_wine_constant_buffer_expectations() {
    let Some(corpus) = corpus_or_skip("rdef_matches_wine_constant_buffer_expectations") else {
        return;
    };
    let Some(bytes) = read(&corpus, "wine/reflection/_global__test_reflection_constant_buffer_blob.dxbc") else {
        return;
    };
    let shader = Shader::parse(&bytes, &ReadOptions::default()).unwrap();
    let r = shader.reflection.as_ref().expect("RDEF");
    assert_eq!((r.target.prefix(), r.target.major, r.target.minor), (Some("ps"), 5, 0));
    assert_eq!(r.compile_flags, 256);
    assert!(r.creator.starts_with("Microsoft (R) HLSL Shader Compiler"), "{}", r.creator);
    let cbs: Vec<_> =
        r.constant_buffers.iter().map(|c| (c.name.as_str(), c.kind, c.variables.len(), c.size, c.flags)).collect();
    assert_eq!(
        cbs,
        [("$ThisPointer", CbufferKind::InterfacePointers, 1, 16, 0), ("c1", CbufferKind::Cbuffer, 4, 64, 0)]
    );
    let vars: Vec<_> = r
        .constant_buffers
        .iter()
        .flat_map(|c| &c.variables)
        .map(|v| (v.name.as_str(), v.offset, v.size, v.flags, v.default_value.is_some()))
        .collect();
    assert_eq!(
        vars,
        [
            ("g_Test", 0, 1, 6, false),
            ("a", 0, 4, 0, false),
            ("b", 16, 20, 0, false),
            ("i", 36, 4, 0, false),
            ("t", 48, 8, 2, false)
        ]
    );
    let types: Vec<_> = r
        .constant_buffers
        .iter()
        .flat_map(|c| &c.variables)
        .map(|v| (v.ty.class, v.ty.base, v.ty.rows, v.ty.columns, v.ty.elements, v.ty.name.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        types,
        [
            (VariableClass::InterfacePointer, VariableType::InterfacePointer, 1, 4, 0, "iTest".to_string()),
            (VariableClass::Scalar, VariableType::Float, 1, 1, 0, "float".to_string()),
            (VariableClass::Scalar, VariableType::Float, 1, 1, 2, "float".to_string()),
            (VariableClass::Scalar, VariableType::Int, 1, 1, 0, "int".to_string()),
            (VariableClass::Struct, VariableType::Void, 1, 2, 0, "s".to_string()),
        ]
    );
    let t = &r.constant_buffers[1].variables[3].ty;
    let members: Vec<_> = t.members.iter().map(|m| (m.name.as_str(), m.offset, m.ty.base)).collect();
    assert_eq!(members, [("a", 0, VariableType::Float), ("b", 4, VariableType::Float)]);
    // STAT: the D3D11_SHADER_DESC counters Wine checks.
    let st = stat::parse(shader.container.chunk(b"STAT").unwrap()).unwrap();
    let named: HashMap<_, _> = st.named().collect();
    assert_eq!(st.instruction_count(), Some(8));
    assert_eq!(st.temp_register_count(), Some(2));
    assert_eq!(st.dcl_count(), Some(2));
    assert_eq!(named["FloatInstructionCount"], 2);
    assert_eq!(named["UintInstructionCount"], 1);
    assert_eq!(named["StaticFlowControlCount"], 1);
    assert_eq!(named["DynamicFlowControlCount"], 0);
    // IFCE: one class type, cTest.
    let i = ifce::parse(shader.container.chunk(b"IFCE").unwrap()).unwrap();
    assert_eq!((i.class_instance_count, i.class_type_count), (0, 1));
    assert_eq!(i.class_types.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["cTest"]);
}

/// Wine's `test_reflection_bound_resources` expectations (the blob with `tex1[2]`).
#[test]
fn rdef_matches_wine_bound_resources_expectations() {
    let Some(corpus) = corpus_or_skip("rdef_matches_wine_bound_resources_expectations") else {
        return;
    };
    let Some(bytes) = read(&corpus, "wine/reflection/_global__test_reflection_bound_resources_blob.dxbc") else {
        return;
    };
    let shader = Shader::parse(&bytes, &ReadOptions::default()).unwrap();
    let r = shader.reflection.as_ref().expect("RDEF");
    let got: Vec<_> = r
        .bindings
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.input_type,
                b.bind_point,
                b.bind_count,
                b.flags,
                b.return_type,
                b.dimension,
                b.sample_count,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("sam", InputType::Sampler, 0, 1, 0, ReturnType::None, Dimension::Unknown, 0),
            ("tex1", InputType::Texture, 0, 2, 12, ReturnType::Float, Dimension::Texture2D, u32::MAX),
            ("tex2", InputType::Texture, 2, 1, 12, ReturnType::Float, Dimension::Texture2D, u32::MAX),
            ("c1", InputType::Cbuffer, 0, 1, 0, ReturnType::None, Dimension::Unknown, 0),
            ("c2", InputType::Cbuffer, 1, 1, 0, ReturnType::None, Dimension::Unknown, 0),
        ]
    );
    // SM5.0: no space or range ID in the chunk; the range ID is the bind point.
    assert!(r.bindings.iter().all(|b| b.space.is_none() && b.range_id() == b.bind_point));
    assert_eq!(r.bindings[1].components(), 4);
}

/// vkd3d's `test_root_signature_byte_code` expectations for the blobs in the corpus.
#[test]
fn rts0_matches_vkd3d_expectations() {
    let Some(corpus) = corpus_or_skip("rts0_matches_vkd3d_expectations") else {
        return;
    };
    let rs = |name: &str| {
        let bytes = read(&corpus, &format!("vkd3d/root_signatures/d3d12/test_root_signature_byte_code__{name}.dxbc"))?;
        let c = Container::parse(&bytes, &ReadOptions::default()).unwrap();
        Some(dxbc_wgsl::chunks::rts0::parse(c.chunk(b"RTS0").unwrap()).unwrap())
    };
    if let Some(r) = rs("constants_rootsig1") {
        assert_eq!(r.version, Version::V1_1);
        let p: Vec<_> = r.parameters.iter().map(|p| (p.visibility, p.kind.clone())).collect();
        assert_eq!(
            p,
            [
                (Visibility::All, RootParameterKind::Constants { register: 4, space: 0, count: 3 }),
                (Visibility::All, RootParameterKind::Constants { register: 5, space: 3, count: 4 }),
            ]
        );
    }
    if let Some(r) = rs("root_descriptors_rootsig1") {
        let p: Vec<_> = r
            .parameters
            .iter()
            .map(|p| match &p.kind {
                RootParameterKind::Cbv(d) => ("CBV", d.register, d.space, d.flags, p.visibility),
                RootParameterKind::Srv(d) => ("SRV", d.register, d.space, d.flags, p.visibility),
                RootParameterKind::Uav(d) => ("UAV", d.register, d.space, d.flags, p.visibility),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(
            p,
            [
                ("CBV", 4, 1, Some(0), Visibility::Vertex),
                ("SRV", 13, 0, Some(8), Visibility::All),
                ("UAV", 6, 0, Some(4), Visibility::All)
            ]
        );
    }
    if let Some(r) = rs("deny_ps_rootsig") {
        assert_eq!((r.version, r.flags, r.parameters.len()), (Version::V1_0, 0x20, 0));
        assert_eq!(r.flag_names(), ["DENY_PIXEL_SHADER_ROOT_ACCESS"]);
    }
    if let Some(r) = rs("static_samplers_rootsig") {
        let s: Vec<_> = r
            .static_samplers
            .iter()
            .map(|s| {
                (
                    s.filter,
                    s.address,
                    s.mip_lod_bias,
                    s.max_anisotropy,
                    s.comparison,
                    s.border_color,
                    s.max_lod,
                    s.register,
                    s.space,
                    s.visibility,
                )
            })
            .collect();
        assert_eq!(
            s,
            [
                (0, [1, 3, 1], 0.0, 16, 4, 2, f32::MAX, 0, 0, Visibility::Pixel),
                (1, [1, 1, 4], 1.0, 16, 4, 1, 10.0, 0, 3, Visibility::All),
            ]
        );
    }
}

#[test]
fn info_renders_fxc_like_tables() {
    let Some(corpus) = corpus_or_skip("info_renders_fxc_like_tables") else {
        return;
    };
    let Some(bytes) = read(&corpus, "hbaoplus/CoarseAO_GS/g_CoarseAO_GS_D3D11.dxbc") else {
        return;
    };
    let text = dxbc_wgsl::info::info(&bytes).unwrap();
    // The same rows as fxc's listing (g_CoarseAO_GS_D3D11.fxc.asm), without the `// ` prefix.
    for row in [
        "Name                 Index   Mask Register SysValue  Format   Used",
        "SV_Position              0   xyzw        0      POS   float   xyzw",
        "TEXCOORD                 0   xy          1     NONE   float   xy  ",
        "SV_RenderTargetArrayIndex     0   x           2  RTINDEX    uint   x   ",
    ] {
        assert!(text.lines().any(|l| l == row), "missing row {row:?} in:\n{text}");
    }
    assert!(text.contains("geometry shader gs_5_0"), "{text}");
    assert!(text.contains("checksum c148cd633c4c7267c64ca8762cb3cc2a (ok)"), "{text}");
}
