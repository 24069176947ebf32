//! The browser gate (tools/browser, docs/web-artifact.md): headless Chromium's WebGPU
//! (SwiftShader) loads the web artifacts of every example and test effect and creates every
//! pipeline; draws example-engine's frame from its web scene and compares it with wgpu's frame
//! on this machine's adapter (lavapipe here); runs the docs' JavaScript example.
//!
//! Needs Debian's `chromium` and `npm ci --prefix tools/browser`; `DXBC_WGSL_SKIP_BROWSER=1`
//! skips (with a message), nothing else does: a missing browser fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use example_engine::scene::Renderer;
use example_engine::Gpu;

fn skip() -> bool {
    if std::env::var_os("DXBC_WGSL_SKIP_BROWSER").is_some_and(|v| v == "1") {
        eprintln!(
            "skipped: DXBC_WGSL_SKIP_BROWSER=1 (the browser gate needs chromium and `npm ci --prefix tools/browser`)"
        );
        return true;
    }
    false
}

/// Runs `node tools/browser/gate.mjs ARGS`: its JSON document and whether it exited 0.
fn gate(args: &[&str]) -> (serde_json::Value, bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/browser");
    if let Err(e) = dxbc_wgsl_cli::tint::browser_available() {
        panic!("{e} (DXBC_WGSL_SKIP_BROWSER=1 skips)");
    }
    let out = Command::new("node").arg("gate.mjs").args(args).current_dir(&dir).output().expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!("gate {args:?}: {e}; stdout `{stdout}`, stderr `{}`", String::from_utf8_lossy(&out.stderr))
    });
    (doc, out.status.success())
}

/// The frame wgpu draws here, and the web scene written beside it into `dir`.
fn wgpu_frame(dir: &Path) -> example_engine::Image {
    let gpu = Gpu::new().expect("a wgpu adapter (lavapipe: mesa-vulkan-drivers)");
    let renderer = Renderer::new(&gpu, 640, 480, Default::default()).expect("renderer");
    let frame = renderer.render(&gpu).expect("frame");
    example_engine::web::write_scene(dir, &renderer).expect("web scene");
    frame
}

/// The browser's frame of the scene in `dir`.
fn browser_frame(dir: &Path) -> (Vec<u8>, serde_json::Value) {
    browser_scene(dir, "scene.json")
}

/// The browser's frame of scene file `scene` in `dir`.
fn browser_scene(dir: &Path, scene: &str) -> (Vec<u8>, serde_json::Value) {
    let out = dir.join(format!("{scene}.rgba"));
    let (doc, ok) = gate(&["draw", "--data", dir.to_str().unwrap(), "--scene", scene, "--out", out.to_str().unwrap()]);
    assert!(ok, "the browser's draw of {scene} reported errors: {doc}");
    (std::fs::read(&out).expect("browser frame"), doc)
}

/// `tiles` side by side in one row, as a family scene's frame lays them out.
fn row_of(tiles: &[example_engine::Image]) -> example_engine::Image {
    let (w, h) = (tiles[0].width, tiles[0].height);
    let width = w * tiles.len() as u32;
    let mut rgba = vec![0; (width * h * 4) as usize];
    for (i, t) in tiles.iter().enumerate() {
        assert_eq!((t.width, t.height), (w, h), "tile size");
        for y in 0..h {
            let dst = ((y * width + i as u32 * w) * 4) as usize;
            rgba[dst..dst + (w * 4) as usize]
                .copy_from_slice(&t.rgba[(y * w * 4) as usize..((y + 1) * w * 4) as usize]);
        }
    }
    example_engine::Image { width, height: h, rgba }
}

/// How the browser's frame differs from wgpu's: the largest channel difference on non-edge
/// pixels (an edge pixel's 3×3 neighbourhood in the wgpu frame varies by more than 16/255 in a
/// channel), the share of edge pixels, and the share of pixels beyond 2/255.
struct Difference {
    max_non_edge: u8,
    edge_share: f64,
    beyond_tolerance_share: f64,
    /// Pixels that differ by more than the edge rule's 16/255.
    far_share: f64,
}

fn compare(wgpu: &example_engine::Image, browser: &[u8]) -> Difference {
    let (w, h) = (wgpu.width as i64, wgpu.height as i64);
    assert_eq!(browser.len(), (w * h * 4) as usize, "frame size");
    let at = |x: i64, y: i64, c: usize| wgpu.rgba[((y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) * 4) as usize + c];
    let (mut max_non_edge, mut edges, mut beyond, mut far) = (0u8, 0usize, 0usize, 0usize);
    for y in 0..h {
        for x in 0..w {
            let i = ((y * w + x) * 4) as usize;
            let mut edge = false;
            for c in 0..4 {
                let n: Vec<u8> = (-1..=1)
                    .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                    .map(|(dx, dy)| at(x + dx, y + dy, c))
                    .collect();
                edge |= n.iter().max().unwrap() - n.iter().min().unwrap() > 16;
            }
            let d = (0..4).map(|c| wgpu.rgba[i + c].abs_diff(browser[i + c])).max().unwrap();
            if edge {
                edges += 1;
            } else {
                max_non_edge = max_non_edge.max(d);
            }
            if d > 2 {
                beyond += 1;
            }
            if d > 16 {
                far += 1;
            }
        }
    }
    let n = (w * h) as f64;
    Difference {
        max_non_edge,
        edge_share: edges as f64 / n,
        beyond_tolerance_share: beyond as f64 / n,
        far_share: far as f64 / n,
    }
}

/// Moves `DiffuseColor` of `module`'s first constant buffer one register (16 bytes) further in
/// `dir/<module>.effect.json`, leaving the scene's values as they are.
fn shift_diffuse_color(dir: &Path, module: &str) {
    let path = dir.join(format!("{module}.effect.json"));
    let mut a: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let field = a["cbuffers"][0]["fields"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["name"] == "DiffuseColor")
        .expect("DiffuseColor");
    field["offset"] = serde_json::json!(field["offset"].as_u64().unwrap() + 16);
    std::fs::write(&path, serde_json::to_string(&a).unwrap()).unwrap();
}

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn the_browsers_example_frame_equals_wgpus() {
    if skip() {
        return;
    }
    let dir = temp();
    let frame = wgpu_frame(dir.path());
    let (browser, doc) = browser_frame(dir.path());
    let d = compare(&frame, &browser);
    eprintln!(
        "adapter {}: non-edge max difference {}/255, edge pixels {:.2}%, pixels beyond 2/255 {:.2}%",
        doc["adapter"]["architecture"],
        d.max_non_edge,
        d.edge_share * 100.0,
        d.beyond_tolerance_share * 100.0
    );
    assert!(d.max_non_edge <= 2, "a non-edge pixel differs by {}/255", d.max_non_edge);
    assert!(
        d.beyond_tolerance_share <= 0.01,
        "{:.2}% of the pixels differ by more than 2/255",
        d.beyond_tolerance_share * 100.0
    );
}

/// The contact sheet's rows of seven more DirectXTK families (every tile of each row, in viewports
/// side by side) drawn by the browser from their artifacts and compared with wgpu's tiles the same
/// way as the example frame. A row whose shaders leave some pixels to the implementation
/// (`FamilyScene::implementation_defined`: derivatives, texel selection at a boundary) is held to
/// at most 0.5% of its pixels differing by more than 16/255 instead; a constant moved by one
/// register in AlphaTestEffect's artifact fails the strict comparison.
#[test]
fn the_browsers_contact_sheet_rows_equal_wgpus() {
    if skip() {
        return;
    }
    let dir = temp();
    let gpu = Gpu::new().expect("a wgpu adapter (lavapipe: mesa-vulkan-drivers)");
    for (module, text) in example_engine::web::ARTIFACTS {
        std::fs::write(dir.path().join(format!("{module}.effect.json")), text).unwrap();
    }
    let keep = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-gate");
    let mut failures = Vec::new();
    let mut strict = 0;
    let mut alpha_test_frame = None;
    for family in &example_engine::web::FAMILY_SCENES {
        example_engine::web::write_family_scene(dir.path(), family).expect("family scene");
        let tiles: Vec<example_engine::Image> = (family.render)(&gpu)
            .into_iter()
            .map(|(label, tile)| tile.unwrap_or_else(|e| panic!("{}: {label}: {e}", family.family)))
            .collect();
        let frame = row_of(&tiles);
        let (browser, _) = browser_scene(dir.path(), &family.file());
        let d = compare(&frame, &browser);
        eprintln!(
            "{} ({} tiles{}): non-edge max difference {}/255, edge pixels {:.2}%, pixels beyond 2/255 {:.2}%, \
             beyond 16/255 {:.3}%",
            family.family,
            tiles.len(),
            if family.implementation_defined.is_some() { ", implementation-defined pixels" } else { "" },
            d.max_non_edge,
            d.edge_share * 100.0,
            d.beyond_tolerance_share * 100.0,
            d.far_share * 100.0
        );
        let failed = match family.implementation_defined {
            None => {
                strict += 1;
                d.max_non_edge > 2 || d.beyond_tolerance_share > 0.01
            }
            Some(_) => d.far_share > 0.005,
        };
        if failed {
            std::fs::create_dir_all(&keep).unwrap();
            frame.save_png(&keep.join(format!("{}-wgpu.png", family.module))).unwrap();
            let browser = example_engine::Image { width: frame.width, height: frame.height, rgba: browser.clone() };
            browser.save_png(&keep.join(format!("{}-browser.png", family.module))).unwrap();
            failures.push(format!(
                "{}: non-edge max {}/255, {:.2}% beyond 2/255, {:.3}% beyond 16/255",
                family.family,
                d.max_non_edge,
                d.beyond_tolerance_share * 100.0,
                d.far_share * 100.0
            ));
        }
        if family.module == "alpha_test_effect" {
            alpha_test_frame = Some(frame);
        }
    }
    assert!(failures.is_empty(), "{failures:?} (both frames are in {})", keep.display());
    assert!(strict >= 3, "only {strict} rows compared strictly");
    // The strict comparison can fail: AlphaTestEffect's DiffuseColor moved by one register.
    shift_diffuse_color(dir.path(), "alpha_test_effect");
    let (browser, _) = browser_scene(dir.path(), "alpha_test_effect.scene.json");
    let d = compare(alpha_test_frame.as_ref().expect("AlphaTestEffect's row"), &browser);
    assert!(
        d.max_non_edge > 2 && d.beyond_tolerance_share > 0.01,
        "AlphaTestEffect's shifted DiffuseColor went unnoticed: non-edge max {}/255, {:.2}% beyond 2/255",
        d.max_non_edge,
        d.beyond_tolerance_share * 100.0
    );
}

/// The JSON path is what the browser draws from: one constant moved by one register in the
/// artifacts (the scene's values unchanged) changes the frame beyond the tolerance.
#[test]
fn a_constant_shifted_by_one_register_in_the_artifact_changes_the_browsers_frame() {
    if skip() {
        return;
    }
    let dir = temp();
    let frame = wgpu_frame(dir.path());
    for module in ["basic_effect", "dual_texture_effect"] {
        shift_diffuse_color(dir.path(), module);
    }
    let (browser, _) = browser_frame(dir.path());
    let d = compare(&frame, &browser);
    assert!(
        d.max_non_edge > 2 && d.beyond_tolerance_share > 0.01,
        "the shifted constant went unnoticed: non-edge max {}/255, {:.2}% beyond 2/255",
        d.max_non_edge,
        d.beyond_tolerance_share * 100.0
    );
}

/// The web artifacts of every effect of tests/effects, compiled here (the example effects'
/// come from example-engine's build).
fn test_effect_artifacts(dir: &Path) -> usize {
    let effects = Path::new(env!("CARGO_MANIFEST_DIR")).join("effects");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&effects)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".effect.toml"))
        .collect();
    files.sort();
    for f in &files {
        let effect = dxbc_wgsl_build::Effect::load(f).unwrap_or_else(|d| panic!("{}: {d:?}", f.display()));
        let compiled = dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
            .unwrap_or_else(|d| panic!("{}: {d:?}", f.display()));
        let json = dxbc_wgsl_build::web::to_json(&dxbc_wgsl_build::web::artifact(&compiled));
        std::fs::write(dir.join(format!("test_{}.effect.json", compiled.effect.module)), json).unwrap();
    }
    files.len()
}

#[test]
fn every_pipeline_of_every_example_and_test_effect_is_created_in_chromium() {
    if skip() {
        return;
    }
    let dir = temp();
    for (module, text) in example_engine::web::ARTIFACTS {
        std::fs::write(dir.path().join(format!("{module}.effect.json")), text).unwrap();
    }
    let tests = test_effect_artifacts(dir.path());
    let (doc, ok) = gate(&["pipelines", "--data", dir.path().to_str().unwrap()]);
    let report = doc["report"].as_array().expect("report");
    assert_eq!(report.len(), example_engine::web::ARTIFACTS.len() + tests, "{doc}");
    let mut total = 0;
    for r in report {
        assert_eq!(r["errors"].as_array().map(Vec::len), Some(0), "{}: {}", r["file"], r["errors"]);
        assert!(r["pipelines"].as_u64().unwrap() >= r["variants"].as_u64().unwrap(), "{r}");
        total += r["pipelines"].as_u64().unwrap();
    }
    assert!(ok, "{doc}");
    eprintln!("{total} pipelines of {} effects created in Chromium ({})", report.len(), doc["adapter"]["architecture"]);
}

/// A broken artifact is reported, not passed: the gate can fail.
#[test]
fn a_pipeline_the_browser_rejects_is_reported() {
    if skip() {
        return;
    }
    let dir = temp();
    let mut a: serde_json::Value = serde_json::from_str(example_engine::web::ARTIFACTS[0].1).unwrap();
    // The vertex shader's uniform buffer binding moved: the layout no longer matches the WGSL.
    let layouts = a["bindGroupLayouts"].as_array_mut().unwrap();
    let entry =
        layouts.iter_mut().flat_map(|l| l["entries"].as_array_mut().unwrap().iter_mut()).next().expect("an entry");
    entry["binding"] = serde_json::json!(7);
    std::fs::write(dir.path().join("broken.effect.json"), a.to_string()).unwrap();
    let (doc, ok) = gate(&["pipelines", "--data", dir.path().to_str().unwrap()]);
    assert!(!ok, "a wrong binding passed: {doc}");
    assert!(doc["report"][0]["errors"].as_array().is_some_and(|e| !e.is_empty()), "{doc}");
}

#[test]
fn the_docs_javascript_example_draws_in_chromium() {
    if skip() {
        return;
    }
    let dir = temp();
    for (module, text) in example_engine::web::ARTIFACTS {
        std::fs::write(dir.path().join(format!("{module}.effect.json")), text).unwrap();
    }
    let (doc, ok) = gate(&["example", "--data", dir.path().to_str().unwrap()]);
    assert!(ok, "{doc}");
    // DiffuseColor (0.25, 0.5, 1, 1) in the triangle; the clear colour outside.
    assert_eq!(doc["centre"], serde_json::json!([64, 128, 255, 255]), "{doc}");
    assert_eq!(doc["corner"], serde_json::json!([0, 0, 0, 255]), "{doc}");
}

/// `qualify --browser`'s checker: getCompilationInfo() messages come back per module; a warning
/// (non-uniform derivative under `diagnostic(warning, ...)`) fails a module, a clean one passes,
/// and a module needing a feature the adapter lacks is skipped, not passed.
#[test]
fn browser_compilation_messages_fail_a_module() {
    if skip() {
        return;
    }
    let good = "@fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }";
    let warned = "diagnostic(warning, derivative_uniformity);\n\
        @group(0) @binding(0) var<uniform> u: vec4<f32>;\n\
        @fragment fn main(@location(0) x: f32) -> @location(0) vec4<f32> {\n\
          var d = 0.0;\n\
          if x > 0.5 { d = dpdx(x); }\n\
          return vec4<f32>(d + u.x);\n\
        }";
    let v =
        dxbc_wgsl_cli::tint::check_in_browser(&[good, warned, good], &[vec![], vec![], vec!["no-such-feature".into()]])
            .unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_BROWSER=1 skips)"));
    assert!(v[0].ok && v[0].messages.is_empty() && v[0].skipped.is_none(), "{:?}", v[0]);
    assert!(!v[1].ok && v[1].messages.iter().any(|m| m.kind == "warning"), "{:?}", v[1]);
    assert!(v[2].skipped.as_deref().is_some_and(|s| s.contains("no-such-feature")), "{:?}", v[2]);
}
