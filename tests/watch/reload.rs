//! `example-engine --watch DIR` on what `dxbc-wgsl watch --out DIR` writes: the reloaded pipelines
//! draw the same frame as the built-in ones; an edited WGSL file is drawn after a reload; a bad one
//! is reported and the previous pipelines (and the PNG) stay. Needs a GPU adapter (CI installs
//! lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips.

use std::path::{Path, PathBuf};
use std::time::Duration;

use dxbc_wgsl_cli::watch::{NoValidation, Options, Status, Watcher};
use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::reload::{load_pipelines, stage_files, watch};
use example_engine::scene::{render_frame, Renderer, Scene};

/// The watcher's outputs for the example's two effects, in `out`.
fn watch_outputs(out: &Path) {
    let effects = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects");
    let options = Options {
        paths: vec![effects.join("basic.effect.toml"), effects.join("dual_texture.effect.toml")],
        out: Some(out.to_path_buf()),
        debounce: Duration::from_millis(15),
    };
    let reports = Watcher::new(options, NoValidation).unwrap().scan();
    assert!(reports.iter().all(|r| r.status == Status::Qualified), "{reports:?}");
}

#[test]
fn reloaded_wgsl_draws_the_same_frame_and_a_bad_file_keeps_the_pipelines() {
    let Some(gpu) = gpu_or_skip("reloaded_wgsl_draws_the_same_frame_and_a_bad_file_keeps_the_pipelines") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("wgsl");
    watch_outputs(&out);
    let files = stage_files(&out);
    assert!(files.iter().all(|f| f.is_file()), "{files:?}");

    let (w, h) = (160, 120);
    let built_in = render_frame(&gpu, w, h).unwrap();
    let mut renderer = Renderer::new(&gpu, w, h, Scene::default()).unwrap();
    renderer.pipelines = load_pipelines(&gpu, &out).unwrap_or_else(|e| panic!("{e:#}"));
    let reloaded = renderer.render(&gpu).unwrap();
    assert!(reloaded.rgba == built_in.rgba, "the watcher's WGSL is the built-in WGSL: same frame");

    std::fs::write(&files[3], "garbage {").unwrap();
    let e = format!("{:#}", load_pipelines(&gpu, &out).err().expect("bad WGSL is an error"));
    assert!(e.contains("DualTextureEffect_PSDualTexture.wgsl"), "{e}");
    std::fs::remove_file(&files[0]).unwrap();
    let e = format!("{:#}", load_pipelines(&gpu, &out).err().expect("a missing file is an error"));
    assert!(e.contains("cannot read") && e.contains("BasicEffect_VSBasicPixelLightingTx.wgsl"), "{e}");
}

#[test]
fn the_watch_loop_rerenders_on_change_and_keeps_the_frame_on_error() {
    let Some(gpu) = gpu_or_skip("the_watch_loop_rerenders_on_change_and_keeps_the_frame_on_error") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("wgsl");
    watch_outputs(&out);
    let png = dir.path().join("frame.png");
    let ground_ps: PathBuf = stage_files(&out)[3].clone();
    let original = std::fs::read_to_string(&ground_ps).unwrap();
    let red = {
        let at = original.rfind("return PixelOutput(").expect("the pixel shader returns its output struct");
        let end = at + original[at..].find(';').unwrap();
        format!("{}return PixelOutput(vec4<f32>(1.0, 0.0, 0.0, 1.0)){}", &original[..at], &original[end..])
    };

    let (stop, stopped) = std::sync::mpsc::channel();
    // A deadline, so that a missing event fails the test instead of hanging it.
    let deadline = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(120));
        let _ = deadline.send(());
    });
    let mut lines: Vec<String> = Vec::new();
    let mut first_frame = Vec::new();
    let mut red_frame = Vec::new();
    let mut on_line = |line: String| {
        lines.push(line.clone());
        if line.starts_with("watching") {
            first_frame = std::fs::read(&png).unwrap();
            // Saved as editors do: a temporary file renamed over it.
            let tmp = ground_ps.with_extension("tmp");
            std::fs::write(&tmp, &red).unwrap();
            std::fs::rename(&tmp, &ground_ps).unwrap();
        } else if line.starts_with("reloaded") {
            red_frame = std::fs::read(&png).unwrap();
            std::fs::write(&ground_ps, "fn broken(").unwrap();
        } else if line.starts_with("error:") {
            stop.send(()).unwrap();
        }
    };
    watch(&gpu, &out, &png, (160, 120), &stopped, &mut on_line).unwrap();
    let text = lines.join("\n");
    assert!(lines[0].starts_with("loaded the WGSL"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("reloaded; wrote")), "{text}");
    let error = lines.last().unwrap();
    assert!(error.starts_with("error:") && error.ends_with("keeping the previous pipelines"), "{text}");
    assert!(error.contains("DualTextureEffect_PSDualTexture.wgsl"), "{text}");

    assert_ne!(first_frame, red_frame, "the edited pixel shader was drawn");
    let image = image::load_from_memory(&red_frame).unwrap().to_rgba8();
    let bottom = image.get_pixel(80, 118).0;
    assert_eq!(bottom, [255, 0, 0, 255], "the ground is drawn red");
    assert_eq!(std::fs::read(&png).unwrap(), red_frame, "after a bad WGSL the previous frame stays");
}

/// `watch --gpu`'s validator (`gpu_validate::GpuValidator` behind the watcher's `Validate` trait):
/// every BasicEffect permutation creates its pipeline; a broken stage is an issue naming the
/// permutation; bare shaders create their pipeline.
#[test]
fn the_gpu_validator_creates_every_permutation_and_names_the_broken_one() {
    use dxbc_wgsl_build::compile::{compile, DirectTranslator};
    use dxbc_wgsl_cli::watch::{gpu::GpuValidator, subset, Validate};
    if gpu_or_skip("the_gpu_validator_creates_every_permutation_and_names_the_broken_one").is_none() {
        return;
    }
    let mut v = GpuValidator::new(None).unwrap();
    assert!(v.describe().starts_with("GPU: "), "{}", v.describe());
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects/basic.effect.toml");
    let effect = dxbc_wgsl_build::Effect::load(&file).unwrap();
    let mut compiled = compile(effect, &mut DirectTranslator).unwrap();
    assert_eq!(v.effect(&compiled), Vec::<String>::new());

    // Break the pixel shader of permutation 5 (its output type no longer fits a colour target).
    let ps = compiled.passes[0][5].pixel.unwrap();
    compiled.shaders[ps].info.wgsl = compiled.shaders[ps].info.wgsl.replace("vec4<f32>", "vec4<i32>");
    let issues = v.effect(&subset(&compiled, &[5]));
    assert_eq!(issues.len(), 1, "{issues:?}");
    let name = compiled.effect.describe(&compiled.permutations[5]);
    assert!(issues[0].contains(&name), "{issues:?} should name {name}");

    let vs = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../example-engine/shaders/directxtk/BasicEffect/BasicEffect_VSBasic.dxbc"),
    )
    .unwrap();
    let t = dxbc_wgsl::translate(&vs, &Default::default()).unwrap();
    v.shader(&t).unwrap();
}
