//! Headless wgpu device setup and error-scope helpers.

use std::future::Future;

/// What a machine without a GPU needs, printed whenever no adapter is found.
pub const NO_ADAPTER_HINT: &str = "no GPU adapter found. On a machine without a GPU install Mesa's \
software Vulkan driver (lavapipe): `apt-get install -y mesa-vulkan-drivers` (Debian/Ubuntu), then run \
with WGPU_BACKEND=vulkan";

/// Failures while setting up the device.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter matched (typically: no GPU and no software driver installed).
    #[error("{NO_ADAPTER_HINT} ({source})")]
    NoAdapter {
        #[source]
        source: wgpu::RequestAdapterError,
    },
    /// The adapter refused to create a device.
    #[error("the adapter `{adapter}` could not create a device: {source}")]
    RequestDevice {
        adapter: String,
        #[source]
        source: wgpu::RequestDeviceError,
    },
    /// A bind group was not given a resource its pipeline binds.
    #[error("{0}")]
    MissingResource(String),
    /// A validation or out-of-memory error caught by an error scope.
    #[error("wgpu reported an error while {what}: {error}")]
    Scope { what: String, error: String },
    /// The primitive stage of the point-sprite pass (the engine's pass with a geometry shader)
    /// could not be created, or could not prepare a draw.
    #[error("the point-sprite pass's primitive stage: {0}")]
    PrimitiveStage(#[source] crate::effects::point_sprite_effect::primitive_stage::PrimitiveStageError),
}

/// The limits the device is created with: WebGPU's downlevel defaults (at the adapter's texture
/// resolution), raised to what the passes with a geometry shader need (the point-sprite pass's
/// primitive stage binds storage buffers and bind groups of its own; its generated
/// `required_limits`).
pub fn required_limits(adapter: &wgpu::Limits) -> wgpu::Limits {
    crate::effects::point_sprite_effect::MainStage::required_limits(
        wgpu::Limits::downlevel_defaults().using_resolution(adapter.clone()),
    )
}

/// The features the device is created with: what the passes with a geometry shader need (the
/// point-sprite pass's generated `required_features`; the render passes need none).
pub fn required_features() -> wgpu::Features {
    crate::effects::point_sprite_effect::MainStage::required_features()
}

/// A headless wgpu device: instance, adapter, device and queue.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// Creates a headless device. Backends and adapter choice follow wgpu's environment variables
    /// (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME`, `WGPU_POWER_PREF`, ...).
    pub fn new() -> Result<Self, GpuError> {
        pollster::block_on(Self::new_async())
    }

    async fn new_async() -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
            ..Default::default()
        };
        let adapter = instance.request_adapter(&options).await.map_err(|source| GpuError::NoAdapter { source })?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("example-engine device"),
                required_features: required_features(),
                required_limits: required_limits(&adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|source| GpuError::RequestDevice { adapter: adapter.get_info().name, source })?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// One line describing the adapter in use: name, backend, device type and driver.
    pub fn adapter_summary(&self) -> String {
        let info = self.adapter.get_info();
        let mut line = format!("{} ({:?}, {:?}", info.name, info.backend, info.device_type);
        if !info.driver.is_empty() {
            line.push_str(&format!(", driver {}", info.driver));
        }
        if !info.driver_info.is_empty() {
            line.push_str(&format!(" {}", info.driver_info));
        }
        line.push(')');
        line
    }

    /// Runs `f` inside validation and out-of-memory error scopes and turns any error they catch
    /// into [`GpuError::Scope`] instead of letting wgpu's default handler panic.
    pub fn scoped<T>(&self, what: &str, f: impl FnOnce(&wgpu::Device) -> T) -> Result<T, GpuError> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let validation = block_on(validation.pop());
        let oom = block_on(oom.pop());
        match validation.or(oom) {
            None => Ok(value),
            Some(error) => Err(GpuError::Scope { what: what.to_owned(), error: error.to_string() }),
        }
    }

    /// Blocks until all submitted work has finished.
    pub fn wait_idle(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Scope { what: "waiting for the GPU".to_owned(), error: e.to_string() })
    }
}

fn block_on<F: Future>(future: F) -> F::Output {
    pollster::block_on(future)
}
