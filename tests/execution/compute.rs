//! Compute shaders: thread IDs, thread-group shared memory, barriers and atomics, hand-assembled,
//! translated and run on the GPU (lavapipe in CI), with values that a plausible wrong translation
//! computes differently (a missing barrier, a global/local ID mix-up, a non-atomic add, an
//! unguarded out-of-bounds access); and, without a GPU, the refusals and what Tint accepts.

use dxbc_wgsl::{translate, BindingClass, RefusalReason, TranslateError, TranslateOptions, Translation};
#[path = "../tests/common/mod.rs"]
mod common;

use common::device;
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::asm::*;

fn translated(blob: &[u8]) -> Translation {
    translate(blob, &TranslateOptions::default()).unwrap_or_else(|e| panic!("translation failed: {e}"))
}

/// Tint's verdict on a module (`None` when `DXBC_WGSL_SKIP_TINT` is set).
fn tint_ok(wgsl: &str) -> Option<Result<(), String>> {
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        return None;
    }
    let v = dxbc_wgsl_cli::tint::check(&[wgsl]).unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_TINT=1 skips)"));
    Some(if v[0].ok { Ok(()) } else { Err(format!("{:?}", v[0].messages)) })
}

/// Translates `blob`, binds one raw UAV buffer per `(slot, initial words)`, dispatches `groups`
/// and returns every UAV's words afterwards.
fn run(dev: &Device, blob: &[u8], uavs: &[(u32, Vec<u32>)], groups: [u32; 3]) -> Vec<Vec<u32>> {
    let t = translated(blob);
    if let Some(Err(e)) = tint_ok(&t.wgsl) {
        panic!("Tint rejected:\n{}\n{e}", t.wgsl);
    }
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let buffers: Vec<wgpu::Buffer> =
        uavs.iter().map(|(_, words)| dev.buffer("uav", bytemuck::cast_slice(words), usage)).collect();
    let readbacks: Vec<wgpu::Buffer> = uavs
        .iter()
        .map(|(_, words)| {
            dev.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read-back"),
                size: (words.len() * 4) as u64,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            })
        })
        .collect();
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("compute"),
            source: wgpu::ShaderSource::Wgsl(t.wgsl.clone().into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some(&t.entry_point),
            compilation_options: Default::default(),
            cache: None,
        });
        let entries: Vec<wgpu::BindGroupEntry> = t
            .bindings
            .iter()
            .map(|b| {
                assert_eq!(b.register.class, BindingClass::UnorderedAccess, "only UAVs are bound here");
                let k = uavs.iter().position(|(slot, _)| *slot == b.register.slot).expect("a buffer for every UAV");
                wgpu::BindGroupEntry { binding: b.binding, resource: buffers[k].as_entire_binding() }
            })
            .collect();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        }
        for (b, r) in buffers.iter().zip(&readbacks) {
            encoder.copy_buffer_to_buffer(b, 0, r, 0, b.size());
        }
        dev.queue.submit([encoder.finish()]);
    })
    .expect("dispatch");
    let mut receivers = Vec::new();
    for r in &readbacks {
        let (sender, receiver) = std::sync::mpsc::channel();
        r.slice(..).map_async(wgpu::MapMode::Read, move |x| {
            let _ = sender.send(x);
        });
        receivers.push(receiver);
    }
    dev.wait().expect("wait");
    readbacks
        .iter()
        .zip(receivers)
        .map(|(r, rx)| {
            rx.recv().expect("map").expect("map");
            let words = bytemuck::cast_slice::<u8, u32>(&r.slice(..).get_mapped_range().expect("mapped")).to_vec();
            r.unmap();
            words
        })
        .collect()
}

fn imm1(v: u32) -> Vec<u32> {
    imm([v; 4])
}

// ------------------------------------------------------------------ on the GPU

/// A tree reduction through thread-group shared memory, with `sync_g_t` at the top of every
/// step: each group sums the squares of its 64 global indices plus one. A missing barrier lets
/// threads read partial sums before they are written; a local index where the global one
/// belongs, or the other way round, gives other sums; a wrong group ID puts them elsewhere.
#[test]
fn tgsm_reduction_with_barriers() {
    let Some(dev) = device("tgsm_reduction_with_barriers") else { return };
    // r0.x = tid, r0.y = group (uniform); r1 values and addresses; r2 the uniform loop state
    // (r2.x the stride, r2.y its test); r3 non-uniform temporaries.
    let decls = [
        dcl_uav_raw(0, false),
        dcl_tgsm_raw(0, 256),
        dcl_thread_input(THREAD_GROUP_ID, "x"),
        dcl_thread_input(THREAD_ID_IN_GROUP_FLATTENED, "x"),
    ];
    let body = [
        ins(MOV, &[dst(TEMP, 0, "x"), special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx")]),
        ins(MOV, &[dst(TEMP, 0, "y"), special(THREAD_GROUP_ID, "xxxx")]),
        // r1.x = (64 * group + tid + 1)^2
        ins(IMAD, &[dst(TEMP, 1, "x"), src(TEMP, 0, "yyyy"), imm1(64), src(TEMP, 0, "xxxx")]),
        ins(IADD, &[dst(TEMP, 1, "x"), src(TEMP, 1, "xxxx"), imm1(1)]),
        ins(IMAD, &[dst(TEMP, 1, "x"), src(TEMP, 1, "xxxx"), src(TEMP, 1, "xxxx"), imm1(0)]),
        ins(ISHL, &[dst(TEMP, 1, "y"), src(TEMP, 0, "xxxx"), imm1(2)]),
        ins(STORE_RAW, &[dst(TGSM, 0, "x"), src(TEMP, 1, "yyyy"), src(TEMP, 1, "xxxx")]),
        ins(MOV, &[dst(TEMP, 2, "x"), imm1(32)]),
        ins(LOOP, &[]),
        sync(0b0011),
        ins(IEQ, &[dst(TEMP, 2, "y"), src(TEMP, 2, "xxxx"), imm1(0)]),
        nz(ins(BREAKC, &[src(TEMP, 2, "yyyy")])),
        ins(ULT, &[dst(TEMP, 3, "x"), src(TEMP, 0, "xxxx"), src(TEMP, 2, "xxxx")]),
        nz(ins(IF, &[src(TEMP, 3, "xxxx")])),
        ins(IADD, &[dst(TEMP, 3, "y"), src(TEMP, 0, "xxxx"), src(TEMP, 2, "xxxx")]),
        ins(ISHL, &[dst(TEMP, 3, "y"), src(TEMP, 3, "yyyy"), imm1(2)]),
        ins(LD_RAW, &[dst(TEMP, 1, "z"), src(TEMP, 3, "yyyy"), src(TGSM, 0, "xxxx")]),
        ins(LD_RAW, &[dst(TEMP, 1, "w"), src(TEMP, 1, "yyyy"), src(TGSM, 0, "xxxx")]),
        ins(IADD, &[dst(TEMP, 1, "z"), src(TEMP, 1, "zzzz"), src(TEMP, 1, "wwww")]),
        ins(STORE_RAW, &[dst(TGSM, 0, "x"), src(TEMP, 1, "yyyy"), src(TEMP, 1, "zzzz")]),
        ins(ENDIF, &[]),
        ins(USHR, &[dst(TEMP, 2, "x"), src(TEMP, 2, "xxxx"), imm1(1)]),
        ins(ENDLOOP, &[]),
        ins(IEQ, &[dst(TEMP, 3, "z"), src(TEMP, 0, "xxxx"), imm1(0)]),
        nz(ins(IF, &[src(TEMP, 3, "zzzz")])),
        ins(LD_RAW, &[dst(TEMP, 1, "z"), imm1(0), src(TGSM, 0, "xxxx")]),
        ins(ISHL, &[dst(TEMP, 3, "w"), src(TEMP, 0, "yyyy"), imm1(2)]),
        ins(STORE_RAW, &[dst(UAV, 0, "x"), src(TEMP, 3, "wwww"), src(TEMP, 1, "zzzz")]),
        ins(ENDIF, &[]),
    ];
    let blob = compute_shader([64, 1, 1], &decls, 4, &body);
    let t = translated(&blob);
    assert_eq!(t.workgroup_storage_bytes, 256);
    assert!(t.wgsl.contains("workgroupBarrier()"), "{}", t.wgsl);
    let got = run(&dev, &blob, &[(0, vec![0xdead_beef; 4])], [3, 1, 1]);
    let expected: Vec<u32> = (0..3u32)
        .map(|g| (0..64u32).map(|t| (64 * g + t + 1).wrapping_mul(64 * g + t + 1)).fold(0u32, u32::wrapping_add))
        .chain([0xdead_beef])
        .collect();
    assert_eq!(got[0], expected, "per-group sums of squares");
}

/// Every thread writes its four IDs into its own 64 bytes, placed by the group ID and the
/// flattened index: global and local IDs, x/y/z order and the flattening are all visible.
#[test]
fn thread_ids_land_where_d3d_puts_them() {
    let Some(dev) = device("thread_ids_land_where_d3d_puts_them") else { return };
    let decls = [
        dcl_uav_raw(0, false),
        dcl_thread_input(THREAD_ID, "xyz"),
        dcl_thread_input(THREAD_GROUP_ID, "xyz"),
        dcl_thread_input(THREAD_ID_IN_GROUP, "xyz"),
        dcl_thread_input(THREAD_ID_IN_GROUP_FLATTENED, "x"),
    ];
    let body = [
        // r0.x = ((group.y * 2 + group.x) * 16 + flattened) * 64
        ins(IMAD, &[dst(TEMP, 0, "x"), special(THREAD_GROUP_ID, "yyyy"), imm1(2), special(THREAD_GROUP_ID, "xxxx")]),
        ins(IMAD, &[dst(TEMP, 0, "x"), src(TEMP, 0, "xxxx"), imm1(16), special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx")]),
        ins(ISHL, &[dst(TEMP, 0, "x"), src(TEMP, 0, "xxxx"), imm1(6)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), src(TEMP, 0, "xxxx"), special(THREAD_ID, "xyzx")]),
        ins(IADD, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm1(16)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), src(TEMP, 0, "yyyy"), special(THREAD_GROUP_ID, "xyzx")]),
        ins(IADD, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm1(32)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), src(TEMP, 0, "yyyy"), special(THREAD_ID_IN_GROUP, "zyxz")]),
        ins(IADD, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm1(48)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), src(TEMP, 0, "yyyy"), special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx")]),
    ];
    let blob = compute_shader([4, 2, 2], &decls, 1, &body);
    let got = run(&dev, &blob, &[(0, vec![0xdead_beef; 6 * 16 * 16])], [2, 3, 1]);
    let mut expected = vec![0xdead_beef; 6 * 16 * 16];
    for gy in 0..3u32 {
        for gx in 0..2u32 {
            for lz in 0..2u32 {
                for ly in 0..2u32 {
                    for lx in 0..4u32 {
                        let flat = lz * 8 + ly * 4 + lx;
                        let at = (((gy * 2 + gx) * 16 + flat) * 16) as usize;
                        let (x, y) = (gx * 4 + lx, gy * 2 + ly);
                        expected[at..at + 16].copy_from_slice(&[
                            x, y, lz, x, // vThreadID.xyzx
                            gx, gy, 0, gx, // vThreadGroupID.xyzx
                            lz, ly, lx, lz, // vThreadIDInGroup.zyxz
                            flat, flat, flat, flat,
                        ]);
                    }
                }
            }
        }
    }
    assert_eq!(got[0], expected);
}

/// Every thread of a group adds `tid + 1` to one shared word with `imm_atomic_iadd` (thread 0
/// initialised it to 1000 with a plain store, and reads it back with a plain load: WGSL makes
/// both atomic) and keeps the maximum of the returned values with `atomic_umax`. Atomic adds
/// return a chain: the old values plus their addends are the old values with the final sum in
/// place of the start; a non-atomic add loses updates and breaks the chain.
#[test]
fn tgsm_atomics_from_every_thread() {
    let Some(dev) = device("tgsm_atomics_from_every_thread") else { return };
    let decls = [
        dcl_uav_raw(0, false),
        dcl_tgsm_raw(0, 8),
        dcl_thread_input(THREAD_GROUP_ID, "x"),
        dcl_thread_input(THREAD_ID_IN_GROUP_FLATTENED, "x"),
    ];
    // u0: per group 66 words: the final sum, the maximum old value, then 64 old values.
    let body = [
        ins(MOV, &[dst(TEMP, 0, "x"), special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx")]),
        ins(MOV, &[dst(TEMP, 0, "y"), special(THREAD_GROUP_ID, "xxxx")]),
        ins(IEQ, &[dst(TEMP, 1, "x"), src(TEMP, 0, "xxxx"), imm1(0)]),
        nz(ins(IF, &[src(TEMP, 1, "xxxx")])),
        ins(STORE_RAW, &[dst(TGSM, 0, "xy"), imm1(0), imm([1000, 0, 0, 0])]),
        ins(ENDIF, &[]),
        sync(0b0011),
        ins(IADD, &[dst(TEMP, 1, "y"), src(TEMP, 0, "xxxx"), imm1(1)]),
        ins(IMM_ATOMIC_IADD, &[dst(TEMP, 1, "z"), memory(TGSM, 0), imm1(0), src(TEMP, 1, "yyyy")]),
        ins(ATOMIC_UMAX, &[memory(TGSM, 0), imm1(4), src(TEMP, 1, "zzzz")]),
        ins(IMAD, &[dst(TEMP, 1, "w"), src(TEMP, 0, "yyyy"), imm1(66), src(TEMP, 0, "xxxx")]),
        ins(IADD, &[dst(TEMP, 1, "w"), src(TEMP, 1, "wwww"), imm1(2)]),
        ins(ISHL, &[dst(TEMP, 1, "w"), src(TEMP, 1, "wwww"), imm1(2)]),
        ins(STORE_RAW, &[dst(UAV, 0, "x"), src(TEMP, 1, "wwww"), src(TEMP, 1, "zzzz")]),
        sync(0b0011),
        nz(ins(IF, &[src(TEMP, 1, "xxxx")])),
        ins(LD_RAW, &[dst(TEMP, 2, "xy"), imm1(0), src(TGSM, 0, "xyxx")]),
        ins(IMAD, &[dst(TEMP, 2, "z"), src(TEMP, 0, "yyyy"), imm1(264), imm1(0)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xy"), src(TEMP, 2, "zzzz"), src(TEMP, 2, "xyxx")]),
        ins(ENDIF, &[]),
    ];
    let blob = compute_shader([64, 1, 1], &decls, 3, &body);
    let t = translated(&blob);
    for call in ["atomicAdd(", "atomicMax(", "atomicStore(", "atomicLoad("] {
        assert!(t.wgsl.contains(call), "{call} missing:\n{}", t.wgsl);
    }
    let got = &run(&dev, &blob, &[(0, vec![0; 2 * 66])], [2, 1, 1])[0];
    for g in 0..2 {
        let words = &got[g * 66..g * 66 + 66];
        let olds = &words[2..];
        assert_eq!(words[0], 1000 + 64 * 65 / 2, "group {g}: final sum");
        assert_eq!(words[1], *olds.iter().max().expect("olds"), "group {g}: atomic_umax of the old values");
        let mut before: Vec<u32> = olds.to_vec();
        before.push(words[0]);
        let mut after: Vec<u32> = olds.iter().enumerate().map(|(t, o)| o + t as u32 + 1).collect();
        after.push(1000);
        before.sort_unstable();
        after.sort_unstable();
        assert_eq!(before, after, "group {g}: the returned values form one chain of adds");
    }
}

/// Out-of-bounds accesses to `g#` (undefined in D3D) are defined here: reads give 0, writes
/// (also partial ones past the end of a structure or of raw memory) are dropped and clobber
/// nothing; a constant index past the end still compiles.
#[test]
fn tgsm_out_of_bounds_reads_zero_and_drops_writes() {
    let Some(dev) = device("tgsm_out_of_bounds_reads_zero_and_drops_writes") else { return };
    let decls = [dcl_uav_raw(0, false), dcl_tgsm_structured(0, 8, 4), dcl_tgsm_raw(1, 16)];
    let st = |e: u32, off: u32, v: [u32; 2]| {
        ins(STORE_STRUCTURED, &[dst(TGSM, 0, "xy"), imm1(e), imm1(off), imm([v[0], v[1], 0, 0])])
    };
    let out = |at: u32, m: &str, r: u32| ins(STORE_RAW, &[dst(UAV, 0, m), imm1(at * 4), src(TEMP, r, "xyzw")]);
    let lds = |e: u32, off: u32| ins(LD_STRUCTURED, &[dst(TEMP, 0, "xy"), imm1(e), imm1(off), src(TGSM, 0, "xyxx")]);
    let body = [
        st(0, 0, [0x100, 0x101]),
        st(1, 0, [0x102, 0x103]),
        st(2, 0, [0x104, 0x105]),
        st(3, 0, [0x106, 0x107]),
        st(4, 0, [0xbad1, 0xbad2]), // element 4 of 4: dropped
        st(3, 4, [0x1ff, 0xbad3]),  // .x at offset 4 of element 3; .y past the element: dropped
        ins(STORE_RAW, &[dst(TGSM, 1, "xyzw"), imm1(0), imm([0x200, 0x201, 0x202, 0x203])]),
        ins(STORE_RAW, &[dst(TGSM, 1, "xy"), imm1(12), imm([0x2ff, 0xbad4, 0, 0])]), // .y past the end
        lds(3, 0),
        out(0, "xy", 0),
        lds(4, 0),
        out(2, "xy", 0),
        lds(3, 4),
        out(4, "xy", 0),
        ins(LD_RAW, &[dst(TEMP, 0, "xyzw"), imm1(0), src(TGSM, 1, "xyzw")]),
        out(6, "xyzw", 0),
        ins(LD_RAW, &[dst(TEMP, 0, "xy"), imm1(12), src(TGSM, 1, "xyxx")]),
        out(10, "xy", 0),
        ins(MOV, &[dst(TEMP, 1, "x"), imm1(16)]),
        ins(LD_RAW, &[dst(TEMP, 0, "xy"), src(TEMP, 1, "xxxx"), src(TGSM, 1, "xyxx")]),
        out(12, "xy", 0),
        ins(LD_RAW, &[dst(TEMP, 0, "x"), imm1(4096), src(TGSM, 1, "xxxx")]),
        out(14, "x", 0),
        lds(0, 0),
        out(15, "xy", 0),
        lds(1, 0),
        out(17, "xy", 0),
        lds(2, 0),
        out(19, "xy", 0),
    ];
    let blob = compute_shader([1, 1, 1], &decls, 2, &body);
    let got = &run(&dev, &blob, &[(0, vec![0xdead_beef; 22])], [1, 1, 1])[0];
    let expected = [
        0x106,
        0x1ff, // element 3 after the partial write
        0,
        0, // element 4: out of bounds
        0x1ff,
        0, // offset 4 of element 3: .x in the element, .y past it
        0x200,
        0x201,
        0x202,
        0x2ff, // raw words, the last from the partial write
        0x2ff,
        0, // byte 12: .y past the end
        0,
        0, // byte 16 from a register: past the end
        0, // a constant byte address past the end
        0x100,
        0x101,
        0x102,
        0x103,
        0x104,
        0x105, // elements 0-2 untouched
        0xdead_beef,
    ];
    assert_eq!(got[..], expected[..]);
}

// ------------------------------------------------------------------ without a GPU

/// Instruction (or declaration) tokens, one vector each.
type Program = Vec<Vec<u32>>;

fn refusal(blob: &[u8]) -> dxbc_wgsl::Refusal {
    match translate(blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => r,
        Ok(t) => panic!("translated, expected a refusal:\n{}", t.wgsl),
        Err(e) => panic!("{e}"),
    }
}

/// Tint rejects a barrier under control flow that depends on a thread ID, and no diagnostic
/// filter relaxes that (which is why such shaders are refused rather than translated).
#[test]
fn tint_rejects_nonuniform_barriers() {
    let bad = "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { if i == 0u { workgroupBarrier(); } }";
    let good = "@compute @workgroup_size(4) fn main(@builtin(workgroup_id) g: vec3<u32>) { if g.x == 0u { workgroupBarrier(); } }";
    let (Some(b), Some(g)) = (tint_ok(bad), tint_ok(good)) else { return };
    assert!(b.is_err(), "Tint accepted a barrier in non-uniform control flow");
    assert_eq!(g, Ok(()), "Tint rejected a barrier under a workgroup-uniform condition");
}

/// A barrier under a condition on a thread ID, after a return some threads take, or in a loop
/// whose exit depends on shared memory is refused with its own reason; under conditions WGSL can
/// prove uniform (the group ID, a constant buffer) it translates and Tint accepts it.
#[test]
fn barriers_in_nonuniform_control_flow_are_refused() {
    let decls = || {
        vec![
            dcl_tgsm_raw(0, 4),
            dcl_thread_input(THREAD_GROUP_ID, "x"),
            dcl_thread_input(THREAD_ID_IN_GROUP_FLATTENED, "x"),
        ]
    };
    let flat = || special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx");
    let cases: Vec<(&str, Program)> = vec![
        ("if on the thread index", vec![nz(ins(IF, &[flat()])), sync(0b0011), ins(ENDIF, &[])]),
        ("after a return on the thread index", vec![nz(ins(RETC, &[flat()])), sync(0b0011)]),
        (
            "in a loop left on a shared-memory value",
            vec![
                ins(LOOP, &[]),
                sync(0b0011),
                ins(LD_RAW, &[dst(TEMP, 0, "x"), imm1(0), src(TGSM, 0, "xxxx")]),
                nz(ins(BREAKC, &[src(TEMP, 0, "xxxx")])),
                ins(ENDLOOP, &[]),
            ],
        ),
        (
            "after a register took a thread ID (registers are tracked whole)",
            vec![
                ins(MOV, &[dst(TEMP, 0, "x"), flat()]),
                ins(MOV, &[dst(TEMP, 0, "y"), imm1(1)]),
                nz(ins(IF, &[src(TEMP, 0, "yyyy")])),
                sync(0b0010),
                ins(ENDIF, &[]),
            ],
        ),
    ];
    for (what, body) in cases {
        let r = refusal(&compute_shader([4, 1, 1], &decls(), 1, &body));
        assert_eq!(r.reason, RefusalReason::NonUniformBarrier, "{what}: {r}");
        assert_eq!(r.opcode, Some("sync"), "{what}: names the sync");
    }
    let cb_decl = vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, 1];
    let uniform: Vec<(&str, Program, Program)> = vec![
        (
            "if on the group ID",
            decls(),
            vec![nz(ins(IF, &[special(THREAD_GROUP_ID, "xxxx")])), sync(0b0011), ins(ENDIF, &[])],
        ),
        (
            "loop on a constant buffer value, thread-dependent work inside an if",
            [decls(), vec![cb_decl]].concat(),
            vec![
                ins(MOV, &[dst(TEMP, 0, "x"), cb(0, 0, "xxxx")]),
                ins(LOOP, &[]),
                nz(ins(BREAKC, &[src(TEMP, 0, "xxxx")])),
                nz(ins(IF, &[flat()])),
                ins(STORE_RAW, &[dst(TGSM, 0, "x"), imm1(0), flat()]),
                ins(ENDIF, &[]),
                sync(0b0011),
                ins(IADD, &[dst(TEMP, 0, "x"), src(TEMP, 0, "xxxx"), imm1(1)]),
                ins(ENDLOOP, &[]),
            ],
        ),
    ];
    for (what, decls, body) in uniform {
        let t = translated(&compute_shader([4, 1, 1], &decls, 1, &body));
        assert!(t.wgsl.contains("workgroupBarrier()"), "{what}");
        if let Some(Err(e)) = tint_ok(&t.wgsl) {
            panic!("{what}: Tint rejected\n{}\n{e}", t.wgsl);
        }
    }
}

/// `sync` flags: `_g` and `_t` become `workgroupBarrier()`, `_ugroup`/`_uglobal`
/// `storageBarrier()`; `_uglobal` over a `globallycoherent` UAV needs a device-scope fence WGSL
/// lacks and is refused.
#[test]
fn sync_flags_choose_the_barriers() {
    let shader = |flags: u32, coherent: bool| compute_shader([4, 1, 1], &[dcl_uav_raw(0, coherent)], 1, &[sync(flags)]);
    let barriers = |flags: u32| {
        let t = translated(&shader(flags, false));
        (t.wgsl.contains("workgroupBarrier()"), t.wgsl.contains("storageBarrier()"))
    };
    assert_eq!(barriers(0b0010), (true, false), "sync_g");
    assert_eq!(barriers(0b0011), (true, false), "sync_g_t");
    assert_eq!(barriers(0b0100), (false, true), "sync_ugroup");
    assert_eq!(barriers(0b1001), (true, true), "sync_uglobal_t");
    assert_eq!(barriers(0b1011), (true, true), "sync_uglobal_g_t");
    translated(&shader(0b0100, true)); // _ugroup: the thread group only, also for coherent UAVs
    let r = refusal(&shader(0b1000, true));
    assert_eq!(r.reason, RefusalReason::WebGpuLimitation, "{r}");
}

/// D3D allows 32 KB of thread-group shared memory: up to that it translates and the size is
/// reported (WebGPU's default limit is 16 KB); past it, or with a size that is not whole words,
/// it is refused.
#[test]
fn tgsm_size_limits() {
    let shader = |decls: &[Vec<u32>]| compute_shader([1, 1, 1], decls, 1, &[]);
    let t = translated(&shader(&[dcl_tgsm_raw(0, 16384), dcl_tgsm_structured(1, 16, 1024)]));
    assert_eq!(t.workgroup_storage_bytes, 32768);
    assert!(t.wgsl.contains("var<workgroup> g0_: array<u32, 4096>"), "{}", t.wgsl);
    let r = refusal(&shader(&[dcl_tgsm_raw(0, 16384), dcl_tgsm_structured(1, 16, 1025)]));
    assert_eq!(r.reason, RefusalReason::DeclarationUnsupported, "{r}");
    assert!(r.detail.contains("32768"), "{r}");
    let r = refusal(&shader(&[dcl_tgsm_raw(0, 6)]));
    assert_eq!(r.reason, RefusalReason::DeclarationUnsupported, "{r}");
    let r = refusal(&shader(&[dcl_tgsm_raw(0, 4), dcl_tgsm_raw(0, 4)]));
    assert_eq!(r.reason, RefusalReason::DeclarationUnsupported, "a g# declared twice: {r}");
}
