//! SM5.1 resource arrays (register ranges: `dcl_resource_texture2d T0[2:5], space=1`) accessed
//! with immediate indices: each element an instruction names is a binding of its own, bound as
//! a declaration of that one register would be (`docs/binding-model.md`). A hand-assembled
//! `cs_5_1` reads four textures of one range, a texture declared alone, two samplers of an
//! unbounded range and two constant buffers of a range, and writes what it read through a UAV
//! range; the GPU's words are compared with the values the CPU put in each register's
//! resource. Without a GPU: the bindings listed (and Tint's verdict), and the refusals of a
//! dynamic index and of an index outside the range.

use dxbc_wgsl::{BindingClass, BindingSlot, RefusalReason, ResourceKind, ShaderStage, TranslateError, Translation};
#[path = "../tests/common/mod.rs"]
mod common;

use common::{device, read_words};
use dxbc_wgsl_gpu::conformance::draw::{uniform_buffer, Bound, DrawError, Program, Renderer};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::asm::*;

/// `(float,float,float,float)`: the return-type token of a float texture.
const FLOAT4: u32 = 0x5555;
/// The ranges: `T0[2:5], space=1` (read), `T1[0:0]` (one register, space 0), `S0[3:*]`
/// (unbounded; registers 3 and 5 used), `CB0[1:2]` of one register each, `U0[0:1]`.
const T_LOWER: u32 = 2;
const T_UPPER: u32 = 5;
const T_SPACE: u32 = 1;
const S_LOWER: u32 = 3;
const CB_LOWER: u32 = 1;
/// The coordinate both samples use: outside the texture in u, so that the clamping sampler
/// (`s3`) reads column 1 and the repeating one (`s5`) column 0.
const SAMPLE_AT: [f32; 2] = [1.25, 0.25];

fn imm_f(v: [f32; 4]) -> Vec<u32> {
    imm(v.map(f32::to_bits))
}

/// The shader, with `dynamic` replacing the first texture access by `T0[r1.x + 2]`.
fn shader(dynamic: bool) -> Vec<u8> {
    let decls = [
        dcl_range(DCL_CONSTANT_BUFFER, CONSTANT_BUFFER, 0, CB_LOWER, CB_LOWER + 1, &[1], 0),
        dcl_range(DCL_SAMPLER, SAMPLER, 0, S_LOWER, UNBOUNDED, &[], 0),
        dcl_range(DCL_RESOURCE | (TEXTURE2D << 11), RESOURCE, 0, T_LOWER, T_UPPER, &[FLOAT4], T_SPACE),
        dcl_range(DCL_RESOURCE | (TEXTURE2D << 11), RESOURCE, 1, 0, 0, &[FLOAT4], 0),
        dcl_range(DCL_UAV_RAW, UAV, 0, 0, 1, &[], 0),
    ];
    let out =
        |k: u32, value: u32| ins(STORE_RAW, &[element_dst(0, 0, "xyzw"), imm([16 * k; 4]), src(TEMP, value, "xyzw")]);
    let mut body = vec![ins(MOV, &[dst(TEMP, 1, "x"), imm([0; 4])])];
    // Element k of T0 at texel (k % 2, k / 2).
    for k in 0..4 {
        let texture = if dynamic && k == 0 {
            element_relative(RESOURCE, 0, 1, 0, T_LOWER, "xyzw", &[])
        } else {
            element(RESOURCE, 0, T_LOWER + k, "xyzw")
        };
        body.push(ins(LD, &[dst(TEMP, 0, "xyzw"), imm([k % 2, k / 2, 0, 0]), texture]));
        body.push(out(k, 0));
    }
    body.push(ins(LD, &[dst(TEMP, 0, "xyzw"), imm([1, 1, 0, 0]), element(RESOURCE, 1, 0, "xyzw")]));
    body.push(out(4, 0));
    // T0[3] through s3 and s5.
    for (k, s) in [(5, S_LOWER), (6, S_LOWER + 2)] {
        body.push(ins(
            SAMPLE_L,
            &[
                dst(TEMP, 0, "xyzw"),
                imm_f([SAMPLE_AT[0], SAMPLE_AT[1], 0.0, 0.0]),
                element(RESOURCE, 0, T_LOWER + 1, "xyzw"),
                element(SAMPLER, 0, s, ""),
                imm([0; 4]),
            ],
        ));
        body.push(out(k, 0));
    }
    for k in 0..2 {
        body.push(ins(MOV, &[dst(TEMP, 0, "xyzw"), cb_element(0, CB_LOWER + k, 0, "xyzw")]));
        body.push(ins(STORE_RAW, &[element_dst(0, 1, "xyzw"), imm([16 * k; 4]), src(TEMP, 0, "xyzw")]));
    }
    compute_shader_of(CS_5_1, [1, 1, 1], &decls, 2, &body)
}

fn translated(blob: &[u8]) -> Translation {
    dxbc_wgsl::translate(blob, &Default::default()).unwrap_or_else(|e| {
        let shader = dxbc_wgsl::Shader::parse(blob, &Default::default()).expect("assembled blob parses");
        panic!("translation failed: {e}\n{}", dxbc_wgsl::sm4::disasm::disassemble(&shader.program))
    })
}

// ------------------------------------------------------------------ the CPU's side

/// Texel (x, y) channel c of the texture at register t`register` (space `space`): a number no
/// other texture, texel or channel has, exact in f16.
fn texel(register: u32, space: u32, x: u32, y: u32, c: u32) -> f32 {
    (100 * (register + 1) + 1000 * space + 10 * (2 * y + x) + c) as f32
}

/// Constant buffer b`register`'s first register.
fn cb_value(register: u32) -> [f32; 4] {
    std::array::from_fn(|c| 0.5 + (16 * register + c as u32) as f32)
}

/// An f16 of an integer below 2048 (exact).
fn f16_of(v: f32) -> u16 {
    let n = v as u32;
    assert!(n < 2048 && n as f32 == v);
    if n == 0 {
        return 0;
    }
    let e = 31 - n.leading_zeros();
    (((e + 15) << 10) | ((n << (10 - e)) & 0x3ff)) as u16
}

/// What the shader writes: U0[0] (u0) the loads and samples, U0[1] (u1) the constants.
fn expected() -> (Vec<u32>, Vec<u32>) {
    let mut u0 = Vec::new();
    for k in 0..4 {
        u0.extend((0..4).map(|c| texel(T_LOWER + k, T_SPACE, k % 2, k / 2, c).to_bits()));
    }
    u0.extend((0..4).map(|c| texel(0, 0, 1, 1, c).to_bits()));
    // Texel column 1 (clamped) through s3, column 0 (repeated) through s5, both in row 0.
    for column in [1, 0] {
        u0.extend((0..4).map(|c| texel(T_LOWER + 1, T_SPACE, column, 0, c).to_bits()));
    }
    let u1 = (0..2).flat_map(|k| cb_value(CB_LOWER + k).map(f32::to_bits)).collect();
    (u0, u1)
}

/// A 2×2 `Rgba16Float` texture holding [`texel`] of register `register` in space `space`.
fn texture(dev: &Device, register: u32, space: u32) -> wgpu::TextureView {
    let size = wgpu::Extent3d { width: 2, height: 2, depth_or_array_layers: 1 };
    let t = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("texture"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut data = Vec::new();
    for y in 0..2 {
        for x in 0..2 {
            for c in 0..4 {
                data.extend(f16_of(texel(register, space, x, y, c)).to_le_bytes());
            }
        }
    }
    dev.queue.write_texture(
        t.as_image_copy(),
        &data,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(16), rows_per_image: Some(2) },
        size,
    );
    t.create_view(&Default::default())
}

// ------------------------------------------------------------------ on the GPU

/// Each element reads the resource bound at its own register: a translation that bound element
/// k at register L + k + 1 reads its neighbour's texture (or finds none for the last), one that
/// sent every access to the range's first element reads t2, s3 and b1 throughout.
#[test]
fn resource_array_elements_read_their_own_registers() {
    let ps = Program::from_translation(translated(&shader(false)));
    let Some(dev) = device("resource_array_elements_read_their_own_registers") else { return };
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let uavs = [dev.buffer("u0", &[0; 7 * 16], usage), dev.buffer("u1", &[0; 2 * 16], usage)];
    let mut resolve = |stage: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
        assert_eq!(stage, ShaderStage::Compute);
        let BindingSlot { class, slot, space } = b.register;
        Ok(match (class, &b.kind) {
            (BindingClass::ShaderResource, ResourceKind::Texture { .. })
                if (space == T_SPACE && (T_LOWER..=T_UPPER).contains(&slot)) || (space, slot) == (0, 0) =>
            {
                Bound::View(texture(&dev, slot, space))
            }
            (BindingClass::Sampler, ResourceKind::Sampler { comparison: false }) if space == 0 => {
                let mode = match slot {
                    3 => wgpu::AddressMode::ClampToEdge,
                    5 => wgpu::AddressMode::Repeat,
                    _ => panic!("no sampler at {}", b.register),
                };
                Bound::Sampler(dev.device.create_sampler(&wgpu::SamplerDescriptor {
                    address_mode_u: mode,
                    address_mode_v: mode,
                    ..Default::default()
                }))
            }
            (BindingClass::ConstantBuffer, ResourceKind::UniformBuffer { size_bytes })
                if space == 0 && (CB_LOWER..=CB_LOWER + 1).contains(&slot) =>
            {
                Bound::Buffer(uniform_buffer(&dev, &cb_value(slot).map(f32::to_bits), *size_bytes))
            }
            (BindingClass::UnorderedAccess, ResourceKind::StorageBuffer { read_only: false })
                if space == 0 && slot < 2 =>
            {
                Bound::Buffer(uavs[slot as usize].clone())
            }
            _ => panic!("no resource for {} ({:?})", b.register, b.kind),
        })
    };
    if let Err(e) = Renderer::default().dispatch(&dev, &ps, [1, 1, 1], &mut resolve) {
        let why = match e {
            DrawError::Skip(s) => s.to_string(),
            DrawError::Fail(f) => f,
        };
        panic!("dispatch failed: {why}\n{}", ps.wgsl);
    }
    let (u0, u1) = expected();
    let got = (read_words(&dev, &uavs[0]), read_words(&dev, &uavs[1]));
    let floats = |w: &[u32]| w.iter().map(|&x| f32::from_bits(x)).collect::<Vec<_>>();
    assert_eq!(
        (floats(&got.0), floats(&got.1)),
        (floats(&u0), floats(&u1)),
        "left: the GPU's, right: the registers' values\n{}",
        ps.wgsl
    );
}

// ------------------------------------------------------------------ without a GPU

/// The reflection lists one binding per element used, at its own register's binding number
/// (space 1's `t2` is binding 224 + 32 + 2), and none for an element no instruction names
/// (`s4`), so that generated code, `gpu_validate` and the conformance runner create each.
#[test]
fn each_element_used_is_a_binding_of_its_register() {
    let t = translated(&shader(false));
    let mut got: Vec<(String, u32, u32, String)> =
        t.bindings.iter().map(|b| (b.register.to_string(), b.group, b.binding, b.name.clone())).collect();
    got.sort_by_key(|g| g.2);
    let want = |r: &str, binding: u32, name: &str| (r.to_string(), 0, binding, name.to_string());
    assert_eq!(
        got,
        vec![
            want("b1", 1, "cb0_1"),
            want("b2", 2, "cb0_2"),
            want("s3", 19, "s0_3"),
            want("s5", 21, "s0_5"),
            want("t0", 32, "t1"),
            want("u0", 160, "u0_0"),
            want("u1", 161, "u0_1"),
            want("t2, space1", 258, "t0_2"),
            want("t3, space1", 259, "t0_3"),
            want("t4, space1", 260, "t0_4"),
            want("t5, space1", 261, "t0_5"),
        ]
    );
    // The sampled element is filterable, the loaded-only ones are not.
    let sample_of = |slot: u32| {
        t.bindings
            .iter()
            .find_map(|b| match b.kind {
                ResourceKind::Texture { sample, .. } if b.register.slot == slot && b.register.space == T_SPACE => {
                    Some(sample)
                }
                _ => None,
            })
            .expect("bound")
    };
    assert_eq!(sample_of(3), dxbc_wgsl::TextureSample::Float);
    assert_eq!(sample_of(2), dxbc_wgsl::TextureSample::UnfilterableFloat);
    // Tint (Chrome's WGSL compiler) accepts the module, as `qualified` requires.
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_none() {
        let v = dxbc_wgsl_cli::tint::check(&[t.wgsl.as_str()])
            .unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_TINT=1 skips)"));
        assert!(v[0].ok, "Tint: {:?}\n{}", v[0].messages, t.wgsl);
    }
}

/// A register index into a range of several registers would need WebGPU's missing binding
/// arrays: refused, naming the instruction.
#[test]
fn dynamic_index_into_a_resource_array_is_refused() {
    let e = dxbc_wgsl::translate(&shader(true), &Default::default()).expect_err("refused");
    let TranslateError::Unsupported(r) = e else { panic!("not a refusal: {e}") };
    assert_eq!(r.reason, RefusalReason::WebGpuLimitation);
    assert_eq!(r.opcode, Some("ld"));
    // dcl_thread_group, five declarations, dcl_temps, the mov: the ld is instruction 8.
    assert_eq!(r.instruction, Some(8));
    assert!(r.offset.is_some());
    assert!(
        r.detail.starts_with("dynamic index into a resource array: needs binding arrays, which WebGPU lacks")
            && r.detail.contains("T0[2:5], space 1"),
        "{}",
        r.detail
    );
}

/// An immediate index outside the range (undefined in D3D) is refused too.
#[test]
fn index_outside_a_resource_array_is_refused() {
    let decls = [
        dcl_range(DCL_RESOURCE | (TEXTURE2D << 11), RESOURCE, 0, T_LOWER, T_UPPER, &[FLOAT4], T_SPACE),
        dcl_range(DCL_UAV_RAW, UAV, 0, 0, 0, &[], 0),
    ];
    let body = [
        ins(LD, &[dst(TEMP, 0, "xyzw"), imm([0; 4]), element(RESOURCE, 0, T_UPPER + 1, "xyzw")]),
        ins(STORE_RAW, &[element_dst(0, 0, "x"), imm([0; 4]), src(TEMP, 0, "xxxx")]),
    ];
    let e = dxbc_wgsl::translate(&compute_shader_of(CS_5_1, [1, 1, 1], &decls, 1, &body), &Default::default())
        .expect_err("refused");
    let TranslateError::Unsupported(r) = e else { panic!("not a refusal: {e}") };
    assert_eq!((r.reason, r.opcode), (RefusalReason::OperandUnsupported, Some("ld")));
    assert!(r.detail.contains("register 6 is outside the resource array T0[2:5], space 1"), "{}", r.detail);
}
