//! D3D11's fixed-function tessellator on the GPU: the contract's WGSL kernel
//! ([`dxbc_wgsl_contract::tessellator::WGSL`]) over a batch of patches of one domain,
//! partitioning and output primitive, bit-exact with the CPU tessellator
//! ([`dxbc_wgsl_contract::tessellator::tessellate`]). `docs/tessellation.md` describes the
//! passes and the output layout:
//!
//! 1. `count`: one invocation per patch writes its point and index counts into `ranges`;
//! 2. `scan`: one workgroup turns them into first point / first index per patch (exclusive
//!    prefix sums in patch order) and writes the batch's totals;
//! 3. `write`: one invocation per patch writes its points (u, v as f32 bits), each point's
//!    patch, and its indices (offset by the patch's first point, so one indexed draw covers the
//!    batch).

use dxbc_wgsl_contract::tessellator::kernel::{self as binding, TessParams, PATCH_RANGE_SIZE, TESS_PARAMS_SIZE};
use dxbc_wgsl_contract::tessellator::{Domain, OutputPrimitive, Partitioning, Tessellation, WGSL};

/// The buffers of one batch. `points`, `point_patches` and `indices` must hold the batch's
/// totals (see [`Tessellator::tessellate`], which counts first and sizes them exactly).
#[derive(Debug)]
pub struct BatchBuffers {
    /// `TessParams`.
    pub params: wgpu::Buffer,
    /// Factors.
    pub factors: wgpu::Buffer,
    /// `PatchRange` per patch.
    pub ranges: wgpu::Buffer,
    /// Total points, total indices.
    pub totals: wgpu::Buffer,
    /// Domain points.
    pub points: wgpu::Buffer,
    /// Patch of each point.
    pub point_patches: wgpu::Buffer,
    /// Indices.
    pub indices: wgpu::Buffer,
}

/// A tessellated batch on the GPU.
#[derive(Debug)]
pub struct TessellatedBatch {
    /// Its buffers (`COPY_SRC` and `STORAGE` each; `indices` also `INDEX`, `points` also `VERTEX`).
    pub buffers: BatchBuffers,
    /// Patches.
    pub patch_count: u32,
    /// Total points.
    pub point_count: u32,
    /// Total indices.
    pub index_count: u32,
}

/// The tessellator's pipelines (create once per device).
#[derive(Debug)]
pub struct Tessellator {
    layout: wgpu::BindGroupLayout,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    write: wgpu::ComputePipeline,
}

const WORKGROUP: u32 = binding::WORKGROUP_SIZE;
const MAX_GROUPS_X: u32 = 65535;

fn entry(binding: u32, ty: wgpu::BufferBindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    }
}

fn storage_buffer(device: &wgpu::Device, label: &str, size: u64, extra: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(16).next_multiple_of(4),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST | extra,
        mapped_at_creation: false,
    })
}

/// The dispatch size for `patches` (x, y): at most 65535 workgroups along x.
fn groups(patches: u32) -> (u32, u32) {
    let total = patches.div_ceil(WORKGROUP).max(1);
    let x = total.min(MAX_GROUPS_X);
    (x, total.div_ceil(x))
}

impl Tessellator {
    /// Compiles the kernel.
    pub fn new(device: &wgpu::Device) -> Tessellator {
        use wgpu::BufferBindingType::{Storage, Uniform};
        let entries = [
            entry(binding::PARAMS, Uniform),
            entry(binding::FACTORS, Storage { read_only: true }),
            entry(binding::RANGES, Storage { read_only: false }),
            entry(binding::TOTALS, Storage { read_only: false }),
            entry(binding::POINTS, Storage { read_only: false }),
            entry(binding::POINT_PATCHES, Storage { read_only: false }),
            entry(binding::INDICES, Storage { read_only: false }),
        ];
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tessellator"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tessellator"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tessellator"),
            source: wgpu::ShaderSource::Wgsl(WGSL.into()),
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        Tessellator {
            count: pipeline(binding::ENTRY_POINTS[0]),
            scan: pipeline(binding::ENTRY_POINTS[1]),
            write: pipeline(binding::ENTRY_POINTS[2]),
            layout,
        }
    }

    /// The parameters of a batch of `patch_count` patches with `factor_stride` u32s each.
    pub fn params(
        domain: Domain,
        partitioning: Partitioning,
        output: OutputPrimitive,
        patch_count: u32,
        factor_stride: u32,
    ) -> TessParams {
        TessParams {
            domain: domain.code(),
            partitioning: partitioning.code(),
            output: output.code(),
            patch_count,
            factor_stride,
            workgroups_x: groups(patch_count).0,
            pad0: 0,
            pad1: 0,
        }
    }

    fn bind_group(&self, device: &wgpu::Device, b: &BatchBuffers) -> wgpu::BindGroup {
        let buffers = [
            (binding::PARAMS, &b.params),
            (binding::FACTORS, &b.factors),
            (binding::RANGES, &b.ranges),
            (binding::TOTALS, &b.totals),
            (binding::POINTS, &b.points),
            (binding::POINT_PATCHES, &b.point_patches),
            (binding::INDICES, &b.indices),
        ];
        let entries: Vec<_> = buffers
            .iter()
            .map(|&(binding, buffer)| wgpu::BindGroupEntry { binding, resource: buffer.as_entire_binding() })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tessellator"),
            layout: &self.layout,
            entries: &entries,
        })
    }

    fn pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        group: &wgpu::BindGroup,
        pipelines: &[&wgpu::ComputePipeline],
        patches: u32,
    ) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("tessellator"), timestamp_writes: None });
        pass.set_bind_group(binding::GROUP, group, &[]);
        for &pipeline in pipelines {
            pass.set_pipeline(pipeline);
            if std::ptr::eq(pipeline, &self.scan) {
                pass.dispatch_workgroups(1, 1, 1);
            } else {
                let (x, y) = groups(patches);
                pass.dispatch_workgroups(x, y, 1);
            }
        }
    }

    /// Records the count, scan and write passes over `buffers` (whose params hold
    /// `patch_count`). The output buffers must be large enough for the batch's totals: size them
    /// by the batch's totals or by `kernel::MAX_POINTS_PER_PATCH` and `MAX_INDICES_PER_PATCH` per
    /// patch, or use [`Tessellator::tessellate`].
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        buffers: &BatchBuffers,
        patch_count: u32,
    ) {
        let group = self.bind_group(device, buffers);
        self.pass(encoder, &group, &[&self.count, &self.scan, &self.write], patch_count);
    }

    /// Tessellates a batch: `factors` holds `domain.factor_count()` f32s per patch (the hull
    /// shader's patch-constant output, in the domain's order). Counts and scans on the GPU,
    /// reads the totals back, allocates the outputs exactly and writes them.
    pub fn tessellate(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        domain: Domain,
        partitioning: Partitioning,
        output: OutputPrimitive,
        factors: &[f32],
    ) -> Result<TessellatedBatch, String> {
        let stride = domain.factor_count() as u32;
        let patch_count = factors.len() as u32 / stride;
        let params = Self::params(domain, partitioning, output, patch_count, stride);
        let none = wgpu::BufferUsages::empty();
        let params_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tessellator params"),
            size: TESS_PARAMS_SIZE,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&params_buffer, 0, &params.to_bytes());
        let factor_bytes: Vec<u8> = factors.iter().flat_map(|f| f.to_bits().to_le_bytes()).collect();
        let factors_buffer = storage_buffer(device, "tessellator factors", factor_bytes.len() as u64, none);
        queue.write_buffer(&factors_buffer, 0, &factor_bytes);
        let ranges = storage_buffer(device, "tessellator ranges", u64::from(patch_count) * PATCH_RANGE_SIZE, none);
        let totals = storage_buffer(device, "tessellator totals", 8, none);
        let mut buffers = BatchBuffers {
            params: params_buffer,
            factors: factors_buffer,
            ranges,
            totals,
            points: storage_buffer(device, "tessellator points", 8, wgpu::BufferUsages::VERTEX),
            point_patches: storage_buffer(device, "tessellator point patches", 4, none),
            indices: storage_buffer(device, "tessellator indices", 4, wgpu::BufferUsages::INDEX),
        };
        let mut encoder = device.create_command_encoder(&Default::default());
        let group = self.bind_group(device, &buffers);
        self.pass(&mut encoder, &group, &[&self.count, &self.scan], patch_count);
        queue.submit([encoder.finish()]);
        let totals = read_words(device, queue, &buffers.totals)?;
        let (point_count, index_count) = (totals[0], totals[1]);
        buffers.points =
            storage_buffer(device, "tessellator points", u64::from(point_count) * 8, wgpu::BufferUsages::VERTEX);
        buffers.point_patches = storage_buffer(device, "tessellator point patches", u64::from(point_count) * 4, none);
        buffers.indices =
            storage_buffer(device, "tessellator indices", u64::from(index_count) * 4, wgpu::BufferUsages::INDEX);
        let mut encoder = device.create_command_encoder(&Default::default());
        let group = self.bind_group(device, &buffers);
        self.pass(&mut encoder, &group, &[&self.write], patch_count);
        queue.submit([encoder.finish()]);
        Ok(TessellatedBatch { buffers, patch_count, point_count, index_count })
    }
}

/// Reads a buffer (`COPY_SRC`) back as u32 words, waiting for the GPU.
pub fn read_words(device: &wgpu::Device, queue: &wgpu::Queue, buffer: &wgpu::Buffer) -> Result<Vec<u32>, String> {
    let size = buffer.size();
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tessellator read-back"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| e.to_string())?;
    receiver.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
    let data = slice.get_mapped_range().map_err(|e| e.to_string())?;
    let words = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    drop(data);
    staging.unmap();
    Ok(words)
}

impl TessellatedBatch {
    /// Reads the batch back as one [`Tessellation`] per patch (indices relative to the patch's
    /// first point, as the CPU tessellator gives them).
    pub fn read_back(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Vec<Tessellation>, String> {
        let ranges = read_words(device, queue, &self.buffers.ranges)?;
        let points = read_words(device, queue, &self.buffers.points)?;
        let patches = read_words(device, queue, &self.buffers.point_patches)?;
        let indices = read_words(device, queue, &self.buffers.indices)?;
        let mut out = Vec::with_capacity(self.patch_count as usize);
        for (patch, r) in ranges.chunks_exact(4).take(self.patch_count as usize).enumerate() {
            let (first_point, point_count, first_index, index_count) =
                (r[0] as usize, r[1] as usize, r[2] as usize, r[3] as usize);
            let pts = &points[2 * first_point..2 * (first_point + point_count)];
            if let Some(p) = patches[first_point..first_point + point_count].iter().find(|&&p| p as usize != patch) {
                return Err(format!("patch {patch}: a point records patch {p}"));
            }
            let idx = &indices[first_index..first_index + index_count];
            let local = idx
                .iter()
                .map(|&i| {
                    i.checked_sub(first_point as u32)
                        .ok_or_else(|| format!("patch {patch}: index {i} before its first point {first_point}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(Tessellation { points: pts.chunks_exact(2).map(|p| [p[0], p[1]]).collect(), indices: local });
        }
        Ok(out)
    }
}
