//! Execution tests of the stage interface features that need more than a pixel shader over a
//! full-screen triangle: SV_ClipDistance outputs (`clip_distances`), a varying register packing
//! elements of different component types, SV_PrimitiveID in a pixel shader (`primitive_index`),
//! and `resinfo` on a typed UAV texture. Each test hand-assembles its vertex and pixel shaders,
//! translates both, draws them on a real wgpu device and reads the pixels back; the expected
//! values are ones a plausible wrong translation computes differently.

use dxbc_wgsl::{ResourceKind, ShaderStage, TranslateOptions, Translation};
use dxbc_wgsl_gpu::conformance::draw::{Bound, ColorTarget, Draw, DrawError, Program, Renderer, VertexInput};
use dxbc_wgsl_gpu::conformance::Device;

/// A device, or `None` (with a message) when `DXBC_WGSL_SKIP_GPU=1`; fails when no adapter exists.
/// The device has `CLIP_DISTANCES` and `PRIMITIVE_INDEX` when the adapter offers them.
fn device(test: &str) -> Option<Device> {
    if std::env::var(dxbc_wgsl_tests::gpu::SKIP_GPU_ENV).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {}=1", dxbc_wgsl_tests::gpu::SKIP_GPU_ENV);
        return None;
    }
    match Device::new() {
        Ok(d) => {
            eprintln!("{test}: adapter {}", d.summary());
            Some(d)
        }
        Err(e) => panic!("{test}: {e}\n(set DXBC_WGSL_SKIP_GPU=1 to skip the GPU tests explicitly)"),
    }
}

/// Whether the device has `feature`; prints why the test stops when it has not.
fn has_feature(dev: &Device, test: &str, feature: wgpu::Features) -> bool {
    let ok = dev.device.features().contains(feature);
    if !ok {
        eprintln!("SKIPPED {test}: the adapter `{}` does not offer {feature:?}", dev.summary());
    }
    ok
}

/// A minimal SM4/SM5 assembler: operand and instruction tokens, signatures, containers.
mod asm {
    /// Operand types.
    pub const TEMP: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const OUTPUT: u32 = 2;
    pub const IMMEDIATE32: u32 = 4;
    pub const UAV: u32 = 30;

    /// Opcodes.
    pub const ADD: u32 = 0;
    pub const IADD: u32 = 30;
    pub const MOV: u32 = 54;
    pub const RESINFO: u32 = 61;
    pub const RET: u32 = 62;
    pub const DCL_INPUT: u32 = 95;
    pub const DCL_INPUT_PS: u32 = 98;
    pub const DCL_INPUT_PS_SGV: u32 = 99;
    pub const DCL_OUTPUT: u32 = 101;
    pub const DCL_OUTPUT_SIV: u32 = 103;
    pub const DCL_TEMPS: u32 = 104;
    pub const DCL_UAV_TYPED: u32 = 156;
    pub const LD_UAV_TYPED: u32 = 163;
    pub const STORE_UAV_TYPED: u32 = 164;

    /// `D3D_NAME` system values.
    pub const SV_POSITION: u32 = 1;
    pub const SV_CLIP_DISTANCE: u32 = 2;
    pub const SV_PRIMITIVE_ID: u32 = 7;
    pub const SV_TARGET: u32 = 64;

    /// Signature component types.
    pub const UINT: u32 = 1;
    pub const FLOAT: u32 = 3;

    /// Interpolation mode `constant` (opcode control bits 11..14 of `dcl_input_ps*`).
    pub const CONSTANT: u32 = 1 << 11;

    /// Version tokens.
    pub const VS_4_0: u32 = 0x0001_0040;
    pub const PS_4_0: u32 = 0x40;
    pub const PS_5_0: u32 = 0x50;

    /// `xyzw` → swizzle bits; each char one of `xyzw`.
    pub fn swizzle(s: &str) -> u32 {
        s.bytes().enumerate().map(|(i, c)| (u32::from(c.wrapping_sub(b'x')) & 3) << (2 * i)).sum::<u32>()
    }

    /// `xyzw` subset → write-mask bits.
    pub fn mask(s: &str) -> u32 {
        s.bytes().map(|c| 1 << (c.wrapping_sub(b'x') & 3)).fold(0, |a, b| a | b)
    }

    /// A destination (or declared) register `type#[index].mask`.
    pub fn dst(ty: u32, index: u32, m: &str) -> Vec<u32> {
        vec![2 | (mask(m) << 4) | (ty << 12) | (1 << 20), index]
    }

    /// A source register `type#[index].swizzle`.
    pub fn src(ty: u32, index: u32, swz: &str) -> Vec<u32> {
        vec![2 | (1 << 2) | (swizzle(swz) << 4) | (ty << 12) | (1 << 20), index]
    }

    /// A scalar source register `type#[index].c` (one component selected, as fxc encodes scalar
    /// operands).
    pub fn src1(ty: u32, index: u32, c: char) -> Vec<u32> {
        vec![2 | (2 << 2) | ((u32::from(c as u8 - b'x') & 3) << 4) | (ty << 12) | (1 << 20), index]
    }

    /// `l(a, b, c, d)`.
    pub fn imm(v: [u32; 4]) -> Vec<u32> {
        let mut t = vec![2 | (IMMEDIATE32 << 12)];
        t.extend_from_slice(&v);
        t
    }

    /// `l(a)`, a one-component immediate.
    pub fn imm1(v: u32) -> Vec<u32> {
        vec![1 | (IMMEDIATE32 << 12), v]
    }

    /// One instruction or declaration: opcode token (with `control` already shifted into bits
    /// 11..23) carrying its length, then the operand tokens.
    pub fn ins(opcode: u32, control: u32, operands: &[Vec<u32>]) -> Vec<u32> {
        let body: Vec<u32> = operands.iter().flatten().copied().collect();
        let mut t = vec![opcode | control | ((1 + body.len() as u32) << 24)];
        t.extend(body);
        t
    }

    /// `dcl_temps n`.
    pub fn dcl_temps(n: u32) -> Vec<u32> {
        ins(DCL_TEMPS, 0, &[vec![n]])
    }

    /// A signature element.
    pub struct Element {
        pub name: &'static str,
        pub index: u32,
        pub system_value: u32,
        pub component_type: u32,
        pub register: u32,
        pub mask: &'static str,
        /// Inputs: the components read; outputs: the components never written.
        pub rw: &'static str,
    }

    /// An element of a stage's input signature (every declared component read).
    pub fn input(name: &'static str, index: u32, sv: u32, ty: u32, register: u32, m: &'static str) -> Element {
        Element { name, index, system_value: sv, component_type: ty, register, mask: m, rw: m }
    }

    /// An element of a stage's output signature (every declared component written).
    pub fn output(name: &'static str, index: u32, sv: u32, ty: u32, register: u32, m: &'static str) -> Element {
        Element { name, index, system_value: sv, component_type: ty, register, mask: m, rw: "" }
    }

    /// A signature chunk (ISGN/OSGN layout: 6 words per element, then the names).
    fn signature(elements: &[Element]) -> Vec<u8> {
        let mut head: Vec<u32> = vec![elements.len() as u32, 8];
        let mut names: Vec<u8> = Vec::new();
        let names_at = 8 + 24 * elements.len() as u32;
        for e in elements {
            head.push(names_at + names.len() as u32);
            head.extend_from_slice(&[
                e.index,
                e.system_value,
                e.component_type,
                e.register,
                mask(e.mask) | (mask(e.rw) << 8),
            ]);
            names.extend(e.name.as_bytes());
            names.push(0);
        }
        names.resize(names.len().next_multiple_of(4), 0);
        let mut out: Vec<u8> = head.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.extend(names);
        out
    }

    /// A DXBC container: ISGN, OSGN and the program (`SHDR` below SM5, else `SHEX`) of version
    /// token `version` made of `tokens` followed by `ret`.
    pub fn shader(version: u32, inputs: &[Element], outputs: &[Element], tokens: &[Vec<u32>]) -> Vec<u8> {
        let mut program = vec![version, 0];
        for t in tokens {
            program.extend(t);
        }
        program.extend(ins(RET, 0, &[]));
        program[1] = program.len() as u32;
        let code: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
        let fourcc = if (version >> 4) & 0xf >= 5 { *b"SHEX" } else { *b"SHDR" };
        dxbc_wgsl::container::assemble(&[(*b"ISGN", signature(inputs)), (*b"OSGN", signature(outputs)), (fourcc, code)])
    }
}

use asm::*;

/// The program listing of an assembled blob (fxc syntax), to check the assembler and to show
/// in failure messages.
fn disasm(blob: &[u8]) -> String {
    let shader = dxbc_wgsl::Shader::parse(blob, &Default::default()).expect("assembled blob parses");
    dxbc_wgsl::sm4::disasm::disassemble(&shader.program)
}

/// Asserts that `blob` disassembles to `listing` (the lines after the version line, trimmed).
fn assert_listing(blob: &[u8], listing: &[&str]) {
    let text = disasm(blob);
    let got: Vec<&str> = text.lines().skip(1).map(str::trim).collect();
    assert_eq!(got, listing, "assembled program:\n{text}");
}

/// Translates `blob`; panics with the listing on failure.
fn translate(blob: &[u8], options: &TranslateOptions) -> Translation {
    dxbc_wgsl::translate(blob, options).unwrap_or_else(|e| panic!("translation failed: {e}\n{}", disasm(blob)))
}

/// Translates a vertex shader to match a translated pixel shader's interpolation.
fn translate_vs_for(vs: &[u8], ps: &Translation) -> Translation {
    let options = TranslateOptions {
        vertex_output_interpolation: ps
            .inputs
            .iter()
            .filter_map(|i| Some((i.register, i.interpolation?)))
            .collect::<Vec<_>>(),
        ..Default::default()
    };
    translate(vs, &options)
}

/// vs_4_0: `dcl_input v0.xyzw` (POSITION), `dcl_output_siv o0.xyzw, position`, the extra
/// declarations, `mov o0.xyzw, v0.xyzw`, then `body`.
fn vertex_shader(extra_outputs: Vec<Element>, decls: &[Vec<u32>], body: &[Vec<u32>]) -> Vec<u8> {
    let mut tokens = vec![
        ins(DCL_INPUT, 0, &[dst(INPUT, 0, "xyzw")]),
        ins(DCL_OUTPUT_SIV, 0, &[dst(OUTPUT, 0, "xyzw"), vec![SV_POSITION]]),
    ];
    tokens.extend(decls.iter().cloned());
    tokens.push(ins(MOV, 0, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]));
    tokens.extend(body.iter().cloned());
    let mut outputs = vec![output("SV_Position", 0, SV_POSITION, FLOAT, 0, "xyzw")];
    outputs.extend(extra_outputs);
    shader(VS_4_0, &[input("POSITION", 0, 0, FLOAT, 0, "xyzw")], &outputs, &tokens)
}

/// Clip-space positions (w = 1) of one triangle covering the whole viewport.
const FULL_SCREEN: [[f32; 4]; 3] = [[-1.0, -1.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0], [-1.0, 3.0, 0.0, 1.0]];

/// Draws `vertices` (a triangle list of clip-space positions, the vertex shader's register v0)
/// with the translated shaders into a cleared-to-zero `format` target of `size`, and returns
/// the target's texels row by row (`format`'s size in 32-bit words each). `resolve` supplies the
/// pixel shader's resources.
fn render(
    dev: &Device,
    vs: &Translation,
    ps: &Translation,
    vertices: &[[f32; 4]],
    format: wgpu::TextureFormat,
    size: (u32, u32),
    resolve: &mut dyn FnMut(&dxbc_wgsl::ResourceBinding) -> Bound,
) -> Vec<u32> {
    let position = vs.inputs.iter().find(|i| i.register == 0).and_then(|i| i.location).expect("v0 is a location");
    let buffer = dev.buffer("vertices", bytemuck::cast_slice(vertices), wgpu::BufferUsages::VERTEX);
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let (vs_program, ps_program) = (Program::from_translation(vs.clone()), Program::from_translation(ps.clone()));
    let draw = Draw {
        vs: &vs_program,
        ps: &ps_program,
        vertex: vec![Some(VertexInput {
            stride: 16,
            attributes: vec![wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 0,
                shader_location: position,
            }],
            buffer,
        })],
        topology: wgpu::PrimitiveTopology::TriangleList,
        vertex_count: vertices.len() as u32,
        instance_count: 1,
        color: vec![Some(ColorTarget {
            view: texture.create_view(&Default::default()),
            layers: Vec::new(),
            format,
            clear: true,
        })],
        depth: None,
        sample_count: 1,
        sample_mask: !0,
        viewport: size,
        viewports: Vec::new(),
        selected: false,
    };
    let mut resolve = |stage: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
        assert_eq!(stage, ShaderStage::Pixel, "the vertex shaders bind nothing");
        Ok(resolve(b))
    };
    let result = Renderer::default().draw(dev, &draw, &mut resolve);
    if let Err(e) = result {
        let why = match e {
            DrawError::Skip(s) => s.to_string(),
            DrawError::Fail(f) => f,
        };
        panic!("draw failed: {why}\n--- vertex shader ---\n{}\n--- pixel shader ---\n{}", vs.wgsl, ps.wgsl);
    }
    let words = format.block_copy_size(None).expect("a colour format") / 4;
    dev.read_texels(&texture, words, 0, [0, 0, size.0, size.1]).expect("read-back")
}

/// A pixel shader that binds nothing.
fn no_resources(b: &dxbc_wgsl::ResourceBinding) -> Bound {
    panic!("unexpected binding {b:?}")
}

/// A character map of an RGBA8 image: `#` drawn white, `.` still the clear colour (zero),
/// `?` anything else.
fn coverage_map(texels: &[u32], width: u32) -> String {
    texels
        .chunks(width as usize)
        .map(|row| {
            row.iter()
                .map(|&t| match t {
                    u32::MAX => '#',
                    0 => '.',
                    _ => '?',
                })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// SV_ClipDistance: a vertex shader writing two clip distances, o1.x = clip-space x and o1.y =
/// clip-space y, over a full-screen triangle. D3D draws only where both are ≥ 0: the top-right
/// quarter. Ignoring the distances draws everything; using only the first lane draws the right
/// half; a sign error draws another quarter.
#[test]
fn clip_distances_clip_where_negative() {
    const TEST: &str = "clip_distances_clip_where_negative";
    // vs_4_0
    // dcl_input v0.xyzw
    // dcl_output_siv o0.xyzw, position
    // dcl_output_siv o1.xy, clip_distance
    // mov o0.xyzw, v0.xyzw
    // mov o1.xy, v0.xyxx
    let vs_blob = vertex_shader(
        vec![output("SV_ClipDistance", 0, SV_CLIP_DISTANCE, FLOAT, 1, "xy")],
        &[ins(DCL_OUTPUT_SIV, 0, &[dst(OUTPUT, 1, "xy"), vec![SV_CLIP_DISTANCE]])],
        &[ins(MOV, 0, &[dst(OUTPUT, 1, "xy"), src(INPUT, 0, "xyxx")])],
    );
    assert_listing(
        &vs_blob,
        &[
            "dcl_input v0.xyzw",
            "dcl_output_siv o0.xyzw, position",
            "dcl_output_siv o1.xy, clip_distance",
            "mov o0.xyzw, v0.xyzw",
            "mov o1.xy, v0.xyxx",
            "ret",
        ],
    );
    // ps_4_0
    // dcl_output o0.xyzw
    // mov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)
    let one = 1f32.to_bits();
    let ps_blob = shader(
        PS_4_0,
        &[],
        &[output("SV_Target", 0, SV_TARGET, FLOAT, 0, "xyzw")],
        &[ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 0, "xyzw")]), ins(MOV, 0, &[dst(OUTPUT, 0, "xyzw"), imm([one; 4])])],
    );
    assert_listing(&ps_blob, &["dcl_output o0.xyzw", "mov o0.xyzw, l(1.000000,1.000000,1.000000,1.000000)", "ret"]);

    let ps = translate(&ps_blob, &Default::default());
    let vs = translate_vs_for(&vs_blob, &ps);
    assert!(
        vs.required_features.contains(&dxbc_wgsl::WebGpuFeature::ClipDistances),
        "required_features {:?}",
        vs.required_features
    );
    assert!(vs.wgsl.lines().any(|l| l.trim() == "enable clip_distances;"), "no `enable clip_distances;`:\n{}", vs.wgsl);
    assert!(ps.required_features.is_empty(), "pixel shader required_features {:?}", ps.required_features);

    let Some(dev) = device(TEST) else { return };
    if !has_feature(&dev, TEST, wgpu::Features::CLIP_DISTANCES) {
        return;
    }
    let (w, h) = (16, 16);
    let got = render(&dev, &vs, &ps, &FULL_SCREEN, wgpu::TextureFormat::Rgba8Unorm, (w, h), &mut no_resources);
    // Row 0 is the top (clip y = +1); pixel centres are never on x = 0 or y = 0.
    let expected: Vec<u32> =
        (0..h).flat_map(|y| (0..w).map(move |x| if x >= w / 2 && y < h / 2 { u32::MAX } else { 0 })).collect();
    assert_eq!(
        coverage_map(&got, w),
        coverage_map(&expected, w),
        "drawn (#) where both clip distances are ≥ 0: expected (right) vs got (left)\n{}",
        vs.wgsl
    );
}

/// A vertex-shader output register packing a float element (o1.x) and a uint element (o1.y),
/// read by a pixel shader as `constant`: the lanes must arrive as raw bits. A translation that
/// converts between the types (1.5 → 1, 0xdeadbeef → 3.7e9) instead of moving bits gets the
/// words wrong; the pixel shader also computes with each lane in its own type.
#[test]
fn mixed_type_varying_keeps_each_lanes_bits() {
    const TEST: &str = "mixed_type_varying_keeps_each_lanes_bits";
    let one_and_half = 1.5f32.to_bits();
    // vs_4_0
    // dcl_input v0.xyzw
    // dcl_output_siv o0.xyzw, position
    // dcl_output o1.x
    // dcl_output o1.y
    // mov o0.xyzw, v0.xyzw
    // mov o1.x, l(1.5, 0, 0, 0)
    // mov o1.y, l(0, 0xdeadbeef, 0, 0)
    let vs_blob = vertex_shader(
        vec![output("TEXCOORD", 0, 0, FLOAT, 1, "x"), output("TEXCOORD", 1, 0, UINT, 1, "y")],
        &[ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 1, "x")]), ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 1, "y")])],
        &[
            ins(MOV, 0, &[dst(OUTPUT, 1, "x"), imm([one_and_half, 0, 0, 0])]),
            ins(MOV, 0, &[dst(OUTPUT, 1, "y"), imm([0, 0xdead_beef, 0, 0])]),
        ],
    );
    assert_listing(
        &vs_blob,
        &[
            "dcl_input v0.xyzw",
            "dcl_output_siv o0.xyzw, position",
            "dcl_output o1.x",
            "dcl_output o1.y",
            "mov o0.xyzw, v0.xyzw",
            "mov o1.x, l(1.500000,0,0,0)",
            "mov o1.y, l(0,-6259853398707798016.000000,0,0)",
            "ret",
        ],
    );
    // ps_4_0
    // dcl_input_ps constant v1.x
    // dcl_input_ps constant v1.y
    // dcl_output o0.xyzw
    // dcl_temps 1
    // add r0.x, v1.x, v1.x          (3.0 = 0x40400000)
    // iadd r0.y, v1.y, l(1)         (0xdeadbef0)
    // mov o0.xy, v1.xyxx
    // mov o0.zw, r0.xxxy
    let ps_blob = shader(
        PS_4_0,
        &[input("TEXCOORD", 0, 0, FLOAT, 1, "x"), input("TEXCOORD", 1, 0, UINT, 1, "y")],
        &[output("SV_Target", 0, SV_TARGET, UINT, 0, "xyzw")],
        &[
            ins(DCL_INPUT_PS, CONSTANT, &[dst(INPUT, 1, "x")]),
            ins(DCL_INPUT_PS, CONSTANT, &[dst(INPUT, 1, "y")]),
            ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 0, "xyzw")]),
            dcl_temps(1),
            ins(ADD, 0, &[dst(TEMP, 0, "x"), src1(INPUT, 1, 'x'), src1(INPUT, 1, 'x')]),
            ins(IADD, 0, &[dst(TEMP, 0, "y"), src1(INPUT, 1, 'y'), imm1(1)]),
            ins(MOV, 0, &[dst(OUTPUT, 0, "xy"), src(INPUT, 1, "xyxx")]),
            ins(MOV, 0, &[dst(OUTPUT, 0, "zw"), src(TEMP, 0, "xxxy")]),
        ],
    );
    assert_listing(
        &ps_blob,
        &[
            "dcl_input_ps constant v1.x",
            "dcl_input_ps constant v1.y",
            "dcl_output o0.xyzw",
            "dcl_temps 1",
            "add r0.x, v1.x, v1.x",
            "iadd r0.y, v1.y, l(1)",
            "mov o0.xy, v1.xyxx",
            "mov o0.zw, r0.xxxy",
            "ret",
        ],
    );

    let ps = translate(&ps_blob, &Default::default());
    let vs = translate_vs_for(&vs_blob, &ps);
    let Some(dev) = device(TEST) else { return };
    let got = render(&dev, &vs, &ps, &FULL_SCREEN, wgpu::TextureFormat::Rgba32Uint, (4, 4), &mut no_resources);
    let expected = [one_and_half, 0xdead_beef, 3f32.to_bits(), 0xdead_bef0];
    for (i, texel) in got.chunks(4).enumerate() {
        assert_eq!(
            texel, expected,
            "texel {i}: (v1.x, v1.y, v1.x + v1.x, v1.y + 1) as words\n--- vs ---\n{}\n--- ps ---\n{}",
            vs.wgsl, ps.wgsl
        );
    }
}

/// SV_PrimitiveID in a pixel shader: two triangles of one draw split the target along its
/// diagonal; the first (top left) reads 0, the second (bottom right) reads 1. A translation
/// reading a constant (or the vertex index) gets the second triangle wrong.
#[test]
fn primitive_id_numbers_the_triangles_of_a_draw() {
    const TEST: &str = "primitive_id_numbers_the_triangles_of_a_draw";
    // ps_4_0
    // dcl_input_ps_sgv constant v0.x, primitive_id
    // dcl_output o0.xyzw
    // mov o0.x, v0.x
    // mov o0.yzw, l(0, 1, 1, 1)      (drawn marker: the target is cleared to zero)
    let ps_blob = shader(
        PS_4_0,
        &[input("SV_PrimitiveID", 0, SV_PRIMITIVE_ID, UINT, 0, "x")],
        &[output("SV_Target", 0, SV_TARGET, UINT, 0, "xyzw")],
        &[
            ins(DCL_INPUT_PS_SGV, CONSTANT, &[dst(INPUT, 0, "x"), vec![SV_PRIMITIVE_ID]]),
            ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 0, "xyzw")]),
            ins(MOV, 0, &[dst(OUTPUT, 0, "x"), src1(INPUT, 0, 'x')]),
            ins(MOV, 0, &[dst(OUTPUT, 0, "yzw"), imm([0, 1, 1, 1])]),
        ],
    );
    assert_listing(
        &ps_blob,
        &[
            "dcl_input_ps_sgv constant v0.x, primitive_id",
            "dcl_output o0.xyzw",
            "mov o0.x, v0.x",
            "mov o0.yzw, l(0,1,1,1)",
            "ret",
        ],
    );
    // vs_4_0: dcl_input v0.xyzw; dcl_output_siv o0.xyzw, position; mov o0.xyzw, v0.xyzw
    let vs_blob = vertex_shader(Vec::new(), &[], &[]);

    let ps = translate(&ps_blob, &Default::default());
    assert!(
        ps.required_features.contains(&dxbc_wgsl::WebGpuFeature::PrimitiveIndex),
        "required_features {:?}",
        ps.required_features
    );
    assert!(
        ps.wgsl.lines().any(|l| l.trim() == "enable primitive_index;"),
        "no `enable primitive_index;`:\n{}",
        ps.wgsl
    );
    let vs = translate_vs_for(&vs_blob, &ps);

    let Some(dev) = device(TEST) else { return };
    if !has_feature(&dev, TEST, wgpu::Features::PRIMITIVE_INDEX) {
        return;
    }
    // Triangle 0 above the diagonal from (-1, -1) to (1, 1) (clip y up), triangle 1 below it.
    let quad = [
        [-1.0, -1.0, 0.0, 1.0],
        [-1.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [-1.0, -1.0, 0.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [1.0, -1.0, 0.0, 1.0],
    ];
    let n = 8u32;
    let got = render(&dev, &vs, &ps, &quad, wgpu::TextureFormat::Rgba32Uint, (n, n), &mut no_resources);
    // Pixel (x, y)'s centre is above the diagonal when x + y < n - 1 (row 0 at the top); centres
    // on it (x + y = n - 1) belong to either triangle and are not checked.
    let mut table = String::new();
    let mut wrong = 0;
    for y in 0..n {
        for x in 0..n {
            let texel = &got[4 * (y * n + x) as usize..][..4];
            let expected: Option<[u32; 4]> = match (x + y).cmp(&(n - 1)) {
                std::cmp::Ordering::Less => Some([0, 1, 1, 1]),
                std::cmp::Ordering::Greater => Some([1, 1, 1, 1]),
                std::cmp::Ordering::Equal => None,
            };
            if expected.is_some_and(|e| e != texel) {
                wrong += 1;
            }
            table.push_str(&if texel[1..] == [1, 1, 1] { format!("{:2}", texel[0]) } else { " .".to_string() });
        }
        table.push('\n');
    }
    assert_eq!(
        wrong, 0,
        "SV_PrimitiveID per pixel (0 above the diagonal, 1 below; `.` not drawn):\n{table}{}",
        ps.wgsl
    );
}

/// ps_5_0 over a typed UAV texture u1: `resinfo_uint r0.xyzw, l(level), u1.xyzw`, a load from
/// (0, 0) and a store of that value to (1, 0). The shader loads from u1, so its view format is
/// R32_UINT (D3D11 loads typed UAVs only of R32 formats unless the shader declares otherwise)
/// without the caller naming it.
fn resinfo_uav_shader(level: u32) -> Vec<u8> {
    let ps_blob = shader(
        PS_5_0,
        &[],
        &[output("SV_Target", 0, SV_TARGET, UINT, 0, "xyzw")],
        &[
            // dcl_uav_typed_texture2d (uint,uint,uint,uint) u1
            ins(DCL_UAV_TYPED, 3 << 11, &[vec![(UAV << 12) | (1 << 20), 1], vec![0x4444]]),
            ins(DCL_OUTPUT, 0, &[dst(OUTPUT, 0, "xyzw")]),
            dcl_temps(2),
            // resinfo_uint r0.xyzw, l(level), u1.xyzw
            ins(RESINFO, 2 << 11, &[dst(TEMP, 0, "xyzw"), imm1(level), src(UAV, 1, "xyzw")]),
            // ld_uav_typed r1.xyzw, l(0, 0, 0, 0), u1.xyzw
            ins(LD_UAV_TYPED, 0, &[dst(TEMP, 1, "xyzw"), imm([0; 4]), src(UAV, 1, "xyzw")]),
            // store_uav_typed u1.xyzw, l(1, 0, 0, 0), r1.xxxx
            ins(STORE_UAV_TYPED, 0, &[dst(UAV, 1, "xyzw"), imm([1, 0, 0, 0]), src(TEMP, 1, "xxxx")]),
            ins(MOV, 0, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
        ],
    );
    assert_listing(
        &ps_blob,
        &[
            "dcl_uav_typed_texture2d (uint,uint,uint,uint) u1",
            "dcl_output o0.xyzw",
            "dcl_temps 2",
            &format!("resinfo_uint r0.xyzw, l({level}), u1.xyzw"),
            "ld_uav_typed r1.xyzw, l(0, 0, 0, 0), u1.xyzw",
            "store_uav_typed u1.xyzw, l(1,0,0,0), r1.xxxx",
            "mov o0.xyzw, r0.xyzw",
            "ret",
        ],
    );
    ps_blob
}

/// `resinfo` on a typed UAV texture: D3D gives a UAV exactly one mip level, so level 0 reads
/// (width, height, 0, 1) and level 1 is out of range: (0, 0, 0, 1). Also checks the implied
/// R32_UINT view format by a load and store through it.
#[test]
fn resinfo_on_a_typed_uav_texture() {
    const TEST: &str = "resinfo_on_a_typed_uav_texture";
    let shaders = [(0, resinfo_uav_shader(0)), (1, resinfo_uav_shader(1))];
    let vs_blob = vertex_shader(Vec::new(), &[], &[]);
    let Some(dev) = device(TEST) else { return };
    let (w, h) = (7u32, 5u32);
    let sentinel = 0x1234_5678u32;
    for (level, ps_blob) in shaders {
        let ps = translate(&ps_blob, &Default::default());
        let uav = ps.bindings.iter().find(|b| b.register.slot == 1).expect("u1 is bound");
        assert_eq!(
            uav.kind,
            ResourceKind::StorageTexture {
                dimension: dxbc_wgsl::ViewDimension::D2,
                format: dxbc_wgsl::TexelFormat::R32Uint,
                read_write: true
            },
            "u1's binding (the load implies R32_UINT)"
        );
        let vs = translate_vs_for(&vs_blob, &ps);
        let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("u1"),
            size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Uint,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let mut texels = vec![0u32; (w * h) as usize];
        texels[0] = sentinel;
        dev.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(&texels),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * w), rows_per_image: Some(h) },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        let view = texture.create_view(&Default::default());
        let mut resolve = |b: &dxbc_wgsl::ResourceBinding| {
            assert_eq!(b.register.slot, 1, "only u1 is bound: {b:?}");
            Bound::View(view.clone())
        };
        let got = render(&dev, &vs, &ps, &FULL_SCREEN, wgpu::TextureFormat::Rgba32Uint, (4, 4), &mut resolve);
        let expected = if level == 0 { [w, h, 0, 1] } else { [0, 0, 0, 1] };
        for (i, texel) in got.chunks(4).enumerate() {
            assert_eq!(texel, expected, "texel {i}: resinfo_uint of u1 ({w}×{h}) at mip level {level}\n{}", ps.wgsl);
        }
        let uav_texels = dev.read_texels(&texture, 1, 0, [0, 0, w, h]).expect("read-back of u1");
        assert_eq!(&uav_texels[..2], &[sentinel, sentinel], "u1 (0, 0) loaded and stored to (1, 0)\n{}", ps.wgsl);
    }
}
