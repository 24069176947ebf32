//! The wgpu device the cases run on, error scopes, read-back and placeholder resources.

use std::collections::HashMap;

use dxbc_wgsl::bindings::TextureSample;

/// What a machine without a GPU needs, printed whenever no adapter is found.
pub const NO_ADAPTER_HINT: &str = "no GPU adapter found. On a machine without a GPU install Mesa's software \
Vulkan driver (lavapipe): `apt-get install -y mesa-vulkan-drivers` (Debian/Ubuntu), then run with \
WGPU_BACKEND=vulkan";

/// Failures while setting up the device.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    /// No adapter matched.
    #[error("{NO_ADAPTER_HINT} ({0})")]
    NoAdapter(#[source] wgpu::RequestAdapterError),
    /// The adapter refused to create a device.
    #[error("the adapter `{adapter}` could not create a device: {source}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's error.
        #[source]
        source: wgpu::RequestDeviceError,
    },
}

/// A headless wgpu device.
pub struct Device {
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// `float32-filterable` was granted (linear filtering of 32-bit float textures).
    pub float32_filterable: bool,
    /// Adapter-specific format features were granted (e.g. multisampled RGBA32 float targets).
    pub adapter_format_features: bool,
    placeholders: std::cell::RefCell<HashMap<String, wgpu::TextureView>>,
}

impl Device {
    /// Creates a headless device. The backend and adapter follow wgpu's environment variables
    /// (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME`, `WGPU_POWER_PREF`).
    pub fn new() -> Result<Self, DeviceError> {
        pollster::block_on(async {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
            let options = wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
                ..Default::default()
            };
            let adapter = instance.request_adapter(&options).await.map_err(DeviceError::NoAdapter)?;
            let wanted = wgpu::Features::FLOAT32_FILTERABLE
                | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
                | wgpu::Features::CLIP_DISTANCES
                | wgpu::Features::PRIMITIVE_INDEX;
            let features = adapter.features() & wanted;
            // D3D allows 1024 threads per group (x, y <= 1024, z <= 64) and 32 KB of thread-group
            // shared memory; WebGPU's defaults are 256 and 16 KB. Raise them as far as the adapter
            // goes (up to D3D's), as an application running D3D compute shaders must.
            let a = adapter.limits();
            let limits = wgpu::Limits {
                max_compute_invocations_per_workgroup: a.max_compute_invocations_per_workgroup.clamp(256, 1024),
                max_compute_workgroup_size_x: a.max_compute_workgroup_size_x.clamp(256, 1024),
                max_compute_workgroup_size_y: a.max_compute_workgroup_size_y.clamp(256, 1024),
                // z: WebGPU's default is already D3D's 64.
                max_compute_workgroup_storage_size: a.max_compute_workgroup_storage_size.clamp(16 * 1024, 32 * 1024),
                ..wgpu::Limits::default().using_resolution(a.clone())
            };
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    label: Some("dxbc-wgsl conformance"),
                    required_features: features,
                    required_limits: limits,
                    ..Default::default()
                })
                .await
                .map_err(|source| DeviceError::RequestDevice { adapter: adapter.get_info().name, source })?;
            Ok(Self {
                float32_filterable: features.contains(wgpu::Features::FLOAT32_FILTERABLE),
                adapter_format_features: features.contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES),
                adapter,
                device,
                queue,
                placeholders: Default::default(),
            })
        })
    }

    /// One line naming the adapter: name, backend, device type and driver.
    pub fn summary(&self) -> String {
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

    /// Whether this is Mesa's software rasterizer (lavapipe / llvmpipe).
    pub fn is_llvmpipe(&self) -> bool {
        let info = self.adapter.get_info();
        info.name.to_ascii_lowercase().contains("llvmpipe") || info.driver.to_ascii_lowercase().contains("llvmpipe")
    }

    /// Whether the driver is Mesa.
    pub fn is_mesa(&self) -> bool {
        let info = self.adapter.get_info();
        self.is_llvmpipe() || info.driver_info.contains("Mesa") || info.driver.contains("Mesa")
    }

    /// Mesa's version `(major, minor)` from the driver string, when it is Mesa.
    pub fn mesa_version(&self) -> Option<(u32, u32)> {
        let info = self.adapter.get_info();
        let text = format!("{} {}", info.driver, info.driver_info);
        let at = text.find("Mesa ")? + 5;
        let mut parts = text[at..].split(|c: char| !c.is_ascii_digit());
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some((major, minor))
    }

    /// Whether the adapter is NVIDIA's.
    pub fn is_nvidia(&self) -> bool {
        self.adapter.get_info().vendor == 0x10de
    }

    /// Runs `f` inside validation, internal and out-of-memory error scopes; the first error caught
    /// is returned as text instead of reaching wgpu's default handler (which panics).
    pub fn scoped<T>(&self, f: impl FnOnce(&wgpu::Device) -> T) -> Result<T, String> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let validation = pollster::block_on(validation.pop());
        let internal = pollster::block_on(internal.pop());
        let oom = pollster::block_on(oom.pop());
        match validation.or(internal).or(oom) {
            None => Ok(value),
            Some(e) => Err(one_line(&e.to_string())),
        }
    }

    /// Blocks until submitted work is done.
    pub fn wait(&self) -> Result<(), String> {
        self.device.poll(wgpu::PollType::wait_indefinitely()).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Reads texels `rect = [left, top, right, bottom)` of mip 0, array layer `layer`, of a
    /// non-multisampled texture whose texels are `texel_words` 32-bit words. Returns the words
    /// row by row.
    pub fn read_texels(
        &self,
        texture: &wgpu::Texture,
        texel_words: u32,
        layer: u32,
        rect: [u32; 4],
    ) -> Result<Vec<u32>, String> {
        self.copy_texels(texture, texel_words, layer, rect, wgpu::TextureAspect::All)
    }

    /// Reads texels `rect = [left, top, right, bottom)` of mip 0, array layer `layer`, of a
    /// single-sampled `Depth32Float` texture: the depth values' bits, row by row. WebGPU copies
    /// a depth aspect only as a whole subresource, so the whole layer of mip 0 is copied and
    /// `rect` picked from it; of the depth formats only `depth32float` (and `depth16unorm`,
    /// which the runner does not create) can be copied at all (`depth24plus` is opaque), so any
    /// other format is an error.
    pub fn read_depth_texels(&self, texture: &wgpu::Texture, layer: u32, rect: [u32; 4]) -> Result<Vec<u32>, String> {
        if texture.format() != wgpu::TextureFormat::Depth32Float || texture.sample_count() != 1 {
            return Err(format!(
                "reading back a {:?} depth texture of {} samples (only single-sampled depth32float is copyable)",
                texture.format(),
                texture.sample_count()
            ));
        }
        let size = texture.size();
        let [left, top, right, bottom] = rect;
        if right > size.width || bottom > size.height || layer >= size.depth_or_array_layers {
            return Err(format!(
                "texels [{left}, {top}, {right}, {bottom}) of layer {layer} lie outside the {}x{}x{} depth texture",
                size.width, size.height, size.depth_or_array_layers
            ));
        }
        let all =
            self.copy_texels(texture, 1, layer, [0, 0, size.width, size.height], wgpu::TextureAspect::DepthOnly)?;
        let mut out = Vec::new();
        for y in top..bottom {
            let row = (y * size.width) as usize;
            out.extend_from_slice(&all[row + left as usize..row + right.max(left) as usize]);
        }
        Ok(out)
    }

    /// Copies `rect` of mip 0, layer `layer`, aspect `aspect` into a buffer with rows padded
    /// to WebGPU's alignment and returns the texels' words row by row.
    fn copy_texels(
        &self,
        texture: &wgpu::Texture,
        texel_words: u32,
        layer: u32,
        rect: [u32; 4],
        aspect: wgpu::TextureAspect,
    ) -> Result<Vec<u32>, String> {
        let [left, top, right, bottom] = rect;
        let (w, h) = (right.saturating_sub(left), bottom.saturating_sub(top));
        if w == 0 || h == 0 {
            return Ok(Vec::new());
        }
        let row = w * texel_words * 4;
        let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("probe read-back"),
            size: u64::from(padded) * u64::from(h),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        self.scoped(|device| {
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.copy_texture_to_buffer(
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: left, y: top, z: layer },
                    aspect,
                },
                wgpu::TexelCopyBufferInfo {
                    buffer: &buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(padded),
                        rows_per_image: Some(h),
                    },
                },
                wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
            );
            self.queue.submit([encoder.finish()]);
        })?;
        let slice = buffer.slice(..);
        let (sender, receiver) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = sender.send(r);
        });
        self.wait()?;
        receiver.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity((w * h * texel_words) as usize);
        {
            let data = slice.get_mapped_range().map_err(|e| e.to_string())?;
            for r in 0..h as usize {
                let start = r * padded as usize;
                out.extend_from_slice(bytemuck::cast_slice::<u8, u32>(&data[start..start + row as usize]));
            }
        }
        buffer.unmap();
        Ok(out)
    }

    /// A buffer with `bytes` contents (zero-padded to a multiple of 4, at least 4 bytes) for the
    /// given usages.
    pub fn buffer(&self, label: &str, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt as _;
        let mut contents = bytes.to_vec();
        contents.resize(contents.len().max(4).next_multiple_of(4), 0);
        self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &contents,
            usage: usage | wgpu::BufferUsages::COPY_DST,
        })
    }

    /// A zero-filled texture view standing in for an SRV the case does not bind (D3D reads 0
    /// from a null view).
    pub fn placeholder_texture(
        &self,
        dimension: dxbc_wgsl::ViewDimension,
        sample: TextureSample,
        multisampled: bool,
    ) -> wgpu::TextureView {
        let key = format!("{dimension}/{sample:?}/{multisampled}");
        if let Some(v) = self.placeholders.borrow().get(&key) {
            return v.clone();
        }
        let format = match sample {
            TextureSample::Float => wgpu::TextureFormat::Rgba8Unorm,
            TextureSample::UnfilterableFloat => {
                if multisampled {
                    wgpu::TextureFormat::Rgba8Unorm
                } else {
                    wgpu::TextureFormat::Rgba32Float
                }
            }
            TextureSample::Sint => wgpu::TextureFormat::Rgba32Sint,
            TextureSample::Uint => wgpu::TextureFormat::Rgba32Uint,
            TextureSample::Depth => wgpu::TextureFormat::Depth32Float,
        };
        let (tex_dim, layers) = crate::wgpu_map::texture_shape(dimension);
        let view_dim = crate::wgpu_map::view_dimension(dimension);
        let mut usage = wgpu::TextureUsages::TEXTURE_BINDING;
        if multisampled || sample == TextureSample::Depth {
            usage |= wgpu::TextureUsages::RENDER_ATTACHMENT;
        }
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("placeholder SRV"),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: layers },
            mip_level_count: 1,
            sample_count: if multisampled { 4 } else { 1 },
            dimension: tex_dim,
            format,
            usage,
            view_formats: &[],
        });
        let view =
            texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(view_dim), ..Default::default() });
        self.placeholders.borrow_mut().insert(key, view.clone());
        view
    }
}

/// An error message on one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
