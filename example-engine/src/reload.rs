//! `example-engine --watch DIR`: hot reload of the stage WGSL that `dxbc-wgsl watch --out DIR`
//! writes.
//!
//! The watcher writes each effect's stage WGSL as `DIR/<module>/<stem>.wgsl`, one file per shader
//! input (`DIR/basic_effect/BasicEffect_VSBasicPixelLightingTx.wgsl`, ...). The engine reads the
//! four it draws with (the torus's and the ground's vertex and pixel shaders), builds new
//! [`Pipelines`] from them with the generated layouts and the scene's states, and renders again,
//! replacing the PNG atomically. WGSL that does not compile, or that no longer fits the generated
//! layouts (a changed interface needs a rebuild), is reported and the previous pipelines stay.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::effects::{basic_effect, dual_texture_effect};
use crate::gpu::Gpu;
use crate::scene::{Pipelines, Renderer, Scene, GROUND_PERMUTATION, TORUS_PERMUTATION};
use crate::target::{depth_stencil_state, COLOR_FORMAT};

/// The stage WGSL file `dxbc-wgsl watch` writes for a shader input label (`file.dxbc` or
/// `file.h:symbol`): `<dir>/<module>/<stem>[#symbol].wgsl`.
pub fn stage_file(dir: &Path, module: &str, label: &str) -> PathBuf {
    let (file, symbol) = match label.rsplit_once(':') {
        Some((f, s)) => (f, Some(s)),
        None => (label, None),
    };
    let stem = Path::new(file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| file.into());
    let name = match symbol {
        Some(s) => format!("{stem}#{s}.wgsl"),
        None => format!("{stem}.wgsl"),
    };
    dir.join(module).join(name)
}

/// The four files the scene's pipelines use: torus vertex and pixel, ground vertex and pixel.
pub fn stage_files(dir: &Path) -> [PathBuf; 4] {
    let torus = TORUS_PERMUTATION.shaders().expect("the torus permutation exists");
    let ground = GROUND_PERMUTATION.shaders().expect("the ground permutation exists");
    let torus_ps = torus.pixel.expect("BasicEffect has a pixel shader");
    let ground_ps = ground.pixel.expect("DualTextureEffect has a pixel shader");
    [
        stage_file(dir, "basic_effect", torus.vertex.label),
        stage_file(dir, "basic_effect", torus_ps.label),
        stage_file(dir, "dual_texture_effect", ground.vertex.label),
        stage_file(dir, "dual_texture_effect", ground_ps.label),
    ]
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))
}

fn module(device: &wgpu::Device, path: &Path, wgsl: &str) -> wgpu::ShaderModule {
    let label = path.display().to_string();
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(&label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    })
}

/// Pipelines from the WGSL files in `dir` (see [`stage_files`]), created inside error scopes.
///
/// # Errors
/// A file that cannot be read, WGSL that does not compile, or a pipeline the generated layouts
/// reject.
pub fn load_pipelines(gpu: &Gpu, dir: &Path) -> anyhow::Result<Pipelines> {
    let files = stage_files(dir);
    let sources = [read(&files[0])?, read(&files[1])?, read(&files[2])?, read(&files[3])?];
    let torus = TORUS_PERMUTATION.shaders().expect("exists");
    let ground = GROUND_PERMUTATION.shaders().expect("exists");
    let what = format!("creating pipelines from {}", dir.display());
    let pipelines = gpu.scoped(&what, |device| {
        let m: Vec<wgpu::ShaderModule> = files.iter().zip(&sources).map(|(f, s)| module(device, f, s)).collect();
        let targets =
            [Some(wgpu::ColorTargetState { format: COLOR_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL })];
        let pipeline = |label: &str,
                        layout: &wgpu::PipelineLayout,
                        vs: (&wgpu::ShaderModule, &str),
                        ps: (&wgpu::ShaderModule, &str),
                        buffers: wgpu::VertexBufferLayout<'static>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: vs.0,
                    entry_point: Some(vs.1),
                    compilation_options: Default::default(),
                    buffers: &[Some(buffers)],
                },
                // As `Pipelines::new`: counter-clockwise meshes, back faces culled.
                primitive: wgpu::PrimitiveState {
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: Some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: Some(depth_stencil_state()),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: ps.0,
                    entry_point: Some(ps.1),
                    compilation_options: Default::default(),
                    targets: &targets,
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let torus_layouts = basic_effect::Layouts::new(device, TORUS_PERMUTATION);
        let torus_pipeline = pipeline(
            "torus (BasicEffect, reloaded)",
            &torus_layouts.pipeline,
            (&m[0], torus.vertex.entry_point),
            (&m[1], torus.pixel.expect("exists").entry_point),
            TORUS_PERMUTATION.vertex_buffer_layout().expect("exists"),
        );
        let ground_layouts = dual_texture_effect::Layouts::new(device, GROUND_PERMUTATION);
        let ground_pipeline = pipeline(
            "ground (DualTextureEffect, reloaded)",
            &ground_layouts.pipeline,
            (&m[2], ground.vertex.entry_point),
            (&m[3], ground.pixel.expect("exists").entry_point),
            GROUND_PERMUTATION.vertex_buffer_layout().expect("exists"),
        );
        Pipelines { torus_layouts, torus: torus_pipeline, ground_layouts, ground: ground_pipeline }
    })?;
    Ok(pipelines)
}

/// Renders and writes the PNG through a temporary file and a rename (a viewer never sees half a
/// file).
///
/// # Errors
/// Rendering or writing failed.
pub fn render_to(gpu: &Gpu, renderer: &Renderer, png: &Path) -> anyhow::Result<()> {
    let image = renderer.render(gpu)?;
    let dir = png.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = png.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp.png", std::process::id()));
    image.save_png(&tmp)?;
    std::fs::rename(&tmp, png)?;
    Ok(())
}

/// wgpu's multi-line error (with naga's source excerpt) as one line: its sentences, without the
/// excerpt's drawing.
fn one_line(e: &anyhow::Error) -> String {
    let text = format!("{e:#}");
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '"'))
        .filter(|l| !l.chars().all(|c| c.is_ascii_digit() || c == ' '))
        .collect();
    parts.join(" ")
}

/// The platform's watcher without access events (reading the WGSL would raise them).
struct ChangesOnly(notify::RecommendedWatcher);

impl notify::Watcher for ChangesOnly {
    fn new<F: notify::EventHandler>(mut handler: F, config: notify::Config) -> notify::Result<Self> {
        let filter = move |e: notify::Result<notify::Event>| {
            if !matches!(&e, Ok(event) if event.kind.is_access()) {
                handler.handle_event(e);
            }
        };
        notify::RecommendedWatcher::new(filter, config).map(ChangesOnly)
    }
    fn watch(&mut self, path: &Path, mode: notify::RecursiveMode) -> notify::Result<()> {
        self.0.watch(path, mode)
    }
    fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
        self.0.unwatch(path)
    }
    fn kind() -> notify::WatcherKind {
        notify::RecommendedWatcher::kind()
    }
}

/// Renders once (with `dir`'s WGSL when it is there and valid, else the built-in translation),
/// then again whenever one of the four stage files changes, until `stop` receives (or its sender
/// is dropped). Every outcome is a line given to `report`.
///
/// # Errors
/// The renderer cannot be created, the folder cannot be watched, or a frame cannot be written.
pub fn watch(
    gpu: &Gpu,
    dir: &Path,
    png: &Path,
    size: (u32, u32),
    stop: &Receiver<()>,
    report: &mut dyn FnMut(String),
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let dir = std::fs::canonicalize(dir)?;
    let files = stage_files(&dir);
    let mut renderer = Renderer::new(gpu, size.0, size.1, Scene::default())?;
    let t0 = Instant::now();
    match load_pipelines(gpu, &dir) {
        Ok(p) => {
            renderer.pipelines = p;
            report(format!("loaded the WGSL in {}", dir.display()));
        }
        Err(e) => report(format!("using the built-in WGSL for now: {}", one_line(&e))),
    }
    render_to(gpu, &renderer, png)?;
    report(format!("wrote {} ({:.0} ms)", png.display(), t0.elapsed().as_secs_f64() * 1000.0));

    let (tx, rx) = std::sync::mpsc::channel();
    let config =
        notify_debouncer_mini::Config::default().with_timeout(Duration::from_millis(15)).with_batch_mode(false);
    let mut debouncer = notify_debouncer_mini::new_debouncer_opt::<_, ChangesOnly>(config, move |r| {
        let _ = tx.send(r);
    })?;
    debouncer.watcher().watch(&dir, notify::RecursiveMode::Recursive)?;
    let mut last: Vec<Option<Vec<u8>>> = files.iter().map(|f| std::fs::read(f).ok()).collect();
    report(format!("watching {} (Ctrl-C to stop)", dir.display()));
    loop {
        match stop.try_recv() {
            Ok(()) | Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
            Ok(Err(e)) => report(format!("warning: file watching: {e}")),
            Ok(Ok(events)) => {
                if !events.iter().any(|e| files.contains(&e.path)) {
                    continue;
                }
                let now: Vec<Option<Vec<u8>>> = files.iter().map(|f| std::fs::read(f).ok()).collect();
                if now == last {
                    continue;
                }
                last = now;
                let t0 = Instant::now();
                match load_pipelines(gpu, &dir) {
                    Ok(p) => {
                        renderer.pipelines = p;
                        render_to(gpu, &renderer, png)?;
                        report(format!(
                            "reloaded; wrote {} ({:.0} ms)",
                            png.display(),
                            t0.elapsed().as_secs_f64() * 1000.0
                        ));
                    }
                    Err(e) => report(format!("error: {}; keeping the previous pipelines", one_line(&e))),
                }
            }
        }
    }
    Ok(())
}

/// `example-engine --watch DIR`: [`watch`] until Ctrl-C, printing each line.
pub fn cli(gpu: &Gpu, dir: &Path, png: &Path, size: (u32, u32)) -> std::process::ExitCode {
    let (tx, rx) = std::sync::mpsc::channel();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = tx.send(());
    }) {
        eprintln!("error: cannot install the Ctrl-C handler: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let mut print = |line: String| {
        use std::io::Write as _;
        println!("{line}");
        let _ = std::io::stdout().flush();
    };
    match watch(gpu, dir, png, size, &rx, &mut print) {
        Ok(()) => {
            print("stopped".into());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
