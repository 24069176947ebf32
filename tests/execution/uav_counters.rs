//! UAV hidden counters: `imm_atomic_alloc` and `imm_atomic_consume` on a structured UAV's
//! counter, a binding of its own (`u#_counter` at 896 + #, docs/binding-model.md) whose buffer
//! holds the count D3D sets when the view is bound. Hand-assembled compute shaders
//! (`dxbc_wgsl_tests::counter_fixture`) run on the GPU (lavapipe in CI) against a CPU model of
//! D3D11.3's counter: alloc returns the count before its increment, consume the count after its
//! decrement, both wrap, and the count persists from one dispatch to the next unless the caller
//! writes a new initial value. The counter is then copied out as `CopyStructureCount` does. The
//! same shaders run through the module `include_effect!` generates for
//! `tests/effects/uav_counters.effect.toml`. Without a GPU, the translation's facts and refusals.

use std::collections::BTreeSet;

use dxbc_wgsl::{translate, BindingClass, RefusalReason, ResourceKind, TranslateError, TranslateOptions, Translation};
#[path = "../tests/common/mod.rs"]
mod common;

use common::{device, read_words};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::counter_fixture::{consume, produce, GROUP};

const USAGE: wgpu::BufferUsages =
    wgpu::BufferUsages::STORAGE.union(wgpu::BufferUsages::COPY_SRC).union(wgpu::BufferUsages::COPY_DST);
/// What unwritten words hold.
const SENTINEL: u32 = 0xdead_beef;

fn translated(blob: &[u8]) -> Translation {
    let t = translate(blob, &TranslateOptions::default()).unwrap_or_else(|e| panic!("translation failed: {e}"));
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_none() {
        let v = dxbc_wgsl_cli::tint::check(&[t.wgsl.as_str()])
            .unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_TINT=1 skips)"));
        assert!(v[0].ok, "Tint rejected:\n{}\n{:?}", t.wgsl, v[0].messages);
    }
    t
}

/// The buffers of one run: `u0` (the counted buffer), its counter, `u1` (per thread results).
struct Buffers {
    u0: wgpu::Buffer,
    counter: wgpu::Buffer,
    u1: wgpu::Buffer,
}

impl Buffers {
    fn new(dev: &Device, u0: &[u32], initial_count: u32, u1_words: usize) -> Self {
        Buffers {
            u0: dev.buffer("u0", bytemuck::cast_slice(u0), USAGE),
            // The view's initial count (D3D11's `UAVInitialCounts`, D3D12's counter resource).
            counter: dev.buffer("u0 counter", &initial_count.to_le_bytes(), USAGE),
            u1: dev.buffer("u1", bytemuck::cast_slice(&vec![SENTINEL; u1_words]), USAGE),
        }
    }
}

/// Dispatches `groups` groups of the translated `blob` with `b`'s buffers bound by the
/// translation's bindings (the counter at its own binding).
fn dispatch(dev: &Device, blob: &[u8], b: &Buffers, groups: u32) {
    let t = translated(blob);
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("counters"),
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
            .map(|x| {
                assert_eq!(x.register.class, BindingClass::UnorderedAccess);
                let buffer = match (&x.kind, x.register.slot) {
                    (ResourceKind::UavCounter, 0) => &b.counter,
                    (ResourceKind::StorageBuffer { .. }, 0) => &b.u0,
                    (ResourceKind::StorageBuffer { .. }, 1) => &b.u1,
                    other => panic!("unexpected binding {other:?}"),
                };
                wgpu::BindGroupEntry { binding: x.binding, resource: buffer.as_entire_binding() }
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
            pass.dispatch_workgroups(groups, 1, 1);
        }
        dev.queue.submit([encoder.finish()]);
    })
    .expect("dispatch");
}

/// `CopyStructureCount(destination, offset, view)`: the counter's 4 bytes copied into another
/// buffer at `offset`; returns that buffer's words.
fn copy_structure_count(dev: &Device, counter: &wgpu::Buffer, offset: u64) -> Vec<u32> {
    let destination = dev.buffer("count copy", bytemuck::cast_slice(&[SENTINEL; 4]), USAGE);
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(counter, 0, &destination, offset, 4);
    dev.queue.submit([encoder.finish()]);
    read_words(dev, &destination)
}

/// D3D's counter over one dispatch of `n` threads from `count`: the values the threads are
/// given (in some order) and the count after. Alloc returns the count before its increment,
/// consume the count after its decrement (D3D11.3; Microsoft's `imm_atomic_consume`: "returning
/// the new value"); neither clamps.
fn model(count: u32, n: u32, consume: bool) -> (BTreeSet<u32>, u32) {
    let mut c = count;
    let mut given = BTreeSet::new();
    for _ in 0..n {
        if consume {
            c = c.wrapping_sub(1);
            given.insert(c);
        } else {
            given.insert(c);
            c = c.wrapping_add(1);
        }
    }
    (given, c)
}

/// Checks one produce dispatch of `n` threads from `initial`: each thread's slot (`u1`), the set
/// of slots against the model, each thread's id at its slot of `u0` (where it is in bounds),
/// the other words of `u0` untouched, and the final count.
fn check_produce(what: &str, initial: u32, n: u32, u0: &[u32], u1: &[u32], count: u32) {
    let (expected, after) = model(initial, n, false);
    let slots: BTreeSet<u32> = u1[..n as usize].iter().copied().collect();
    assert_eq!(slots.len(), n as usize, "{what}: every thread gets its own slot: {u1:?}");
    assert_eq!(slots, expected, "{what}: the slots alloc returns");
    for (t, &s) in u1[..n as usize].iter().enumerate() {
        if let Some(&w) = u0.get(s as usize) {
            assert_eq!(w, t as u32, "{what}: thread {t} appended at slot {s}");
        }
    }
    for (i, &w) in u0.iter().enumerate() {
        if !slots.contains(&(i as u32)) {
            assert_eq!(w, SENTINEL, "{what}: u0[{i}] is no thread's slot");
        }
    }
    assert_eq!(count, after, "{what}: the count after");
}

// ------------------------------------------------------------------ on the GPU

/// Four groups append to a buffer whose counter the caller set to 7 at bind time: the slots are
/// 7..263, each thread's id lands in its slot, u0[0..7] keep their contents, the count is 263.
#[test]
fn alloc_returns_the_count_before_the_increment() {
    let Some(dev) = device("alloc_returns_the_count_before_the_increment") else { return };
    let (initial, n) = (7, 4 * GROUP);
    let b = Buffers::new(&dev, &vec![SENTINEL; (initial + n + 5) as usize], initial, n as usize);
    dispatch(&dev, &produce(), &b, 4);
    let (u0, u1, count) = (read_words(&dev, &b.u0), read_words(&dev, &b.u1), read_words(&dev, &b.counter)[0]);
    check_produce("from 7", initial, n, &u0, &u1, count);
}

/// The count persists from one dispatch to the next (D3D's initial count -1: keep it): a second
/// dispatch continues where the first stopped; then `CopyStructureCount` copies it out.
#[test]
fn the_count_persists_and_copies_out() {
    let Some(dev) = device("the_count_persists_and_copies_out") else { return };
    let n = GROUP;
    let b = Buffers::new(&dev, &vec![SENTINEL; (3 * n) as usize], 0, n as usize);
    dispatch(&dev, &produce(), &b, 1);
    let first: BTreeSet<u32> = read_words(&dev, &b.u1).into_iter().collect();
    assert_eq!(first, model(0, n, false).0, "the first dispatch's slots");
    dispatch(&dev, &produce(), &b, 1);
    let (u1, count) = (read_words(&dev, &b.u1), read_words(&dev, &b.counter)[0]);
    let second: BTreeSet<u32> = u1.iter().copied().collect();
    assert_eq!(second, model(n, n, false).0, "the second dispatch continues from {n}");
    assert_eq!(count, 2 * n, "the count after both");
    assert_eq!(copy_structure_count(&dev, &b.counter, 8), [SENTINEL, SENTINEL, 2 * n, SENTINEL], "CopyStructureCount");
    // A new initial value at the next bind (`UAVInitialCounts`): the caller writes the buffer.
    dev.queue.write_buffer(&b.counter, 0, &5u32.to_le_bytes());
    dispatch(&dev, &produce(), &b, 1);
    let third: BTreeSet<u32> = read_words(&dev, &b.u1).into_iter().collect();
    assert_eq!(third, model(5, n, false).0, "the slots from the count written at bind time");
}

/// Four groups consume from a buffer of 300 items counted 300: each thread gets the count after
/// its decrement (299 down to 44), reads the item there, and the count ends at 44.
#[test]
fn consume_returns_the_count_after_the_decrement() {
    let Some(dev) = device("consume_returns_the_count_after_the_decrement") else { return };
    let (initial, n) = (300, 4 * GROUP);
    let items: Vec<u32> = (0..initial).map(|i| 1000 + i).collect();
    let b = Buffers::new(&dev, &items, initial, 2 * n as usize);
    dispatch(&dev, &consume(), &b, 4);
    let (u1, count) = (read_words(&dev, &b.u1), read_words(&dev, &b.counter)[0]);
    let (expected, after) = model(initial, n, true);
    let got: BTreeSet<u32> = u1.chunks(2).map(|p| p[0]).collect();
    assert_eq!(got.len(), n as usize, "every thread consumes its own slot: {u1:?}");
    assert_eq!(got, expected, "the slots consume returns");
    for (t, p) in u1.chunks(2).enumerate() {
        assert_eq!(p[1], 1000 + p[0], "thread {t} read the item at its slot {}", p[0]);
    }
    assert_eq!(count, after, "the count after");
    assert_eq!(read_words(&dev, &b.u0), items, "consume leaves the items");
}

/// Neither direction clamps (D3D11.3: the count wraps): consuming 64 from 10 gives 9..0, then
/// 0xFFFFFFFF down (reads there are out of bounds: 0); allocating 64 from 0xFFFFFFF0 gives
/// 0xFFFFFFF0..=0xFFFFFFFF, then 0..47.
#[test]
fn the_count_wraps_both_ways() {
    let Some(dev) = device("the_count_wraps_both_ways") else { return };
    let n = GROUP;
    let items: Vec<u32> = (0..16).map(|i| 1000 + i).collect();
    let b = Buffers::new(&dev, &items, 10, 2 * n as usize);
    dispatch(&dev, &consume(), &b, 1);
    let (u1, count) = (read_words(&dev, &b.u1), read_words(&dev, &b.counter)[0]);
    let (expected, after) = model(10, n, true);
    assert_eq!(u1.chunks(2).map(|p| p[0]).collect::<BTreeSet<u32>>(), expected, "consume below zero");
    for p in u1.chunks(2) {
        let item = items.get(p[0] as usize).copied().unwrap_or(0);
        assert_eq!(p[1], item, "the item at slot {:#x}", p[0]);
    }
    assert_eq!(count, after, "consume's count after");
    assert_eq!(after, 10u32.wrapping_sub(n));

    let initial = 0xFFFF_FFF0;
    let b = Buffers::new(&dev, &vec![SENTINEL; 64], initial, n as usize);
    dispatch(&dev, &produce(), &b, 1);
    let (u0, u1, count) = (read_words(&dev, &b.u0), read_words(&dev, &b.u1), read_words(&dev, &b.counter)[0]);
    check_produce("alloc past 0xFFFFFFFF", initial, n, &u0, &u1, count);
    assert_eq!(count, 48);
}

// ------------------------------------------------------------------ the generated module

dxbc_wgsl_macros::include_effect!("effects/uav_counters.effect.toml");

/// The blobs in `tests/fixtures/uav_counters/` are what the assembler makes today
/// (`UPDATE_GOLDEN=1` rewrites them).
#[test]
fn fixture_blobs_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/uav_counters");
    for (name, bytes) in dxbc_wgsl_tests::counter_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
    }
}

/// Through the generated module: `Resources` has the counter as a field of its own
/// (`items_counter`). Produce appends 128 items from a count of 3 set at bind time, the count is
/// copied out (`CopyStructureCount`), then consume takes 64 of them back: the last 64 slots.
#[test]
fn the_generated_module_binds_the_counter() {
    use uav_counters as fx;
    let Some(dev) = device("the_generated_module_binds_the_counter") else { return };
    let device = &dev.device;
    let (initial, n) = (3, 2 * GROUP);
    assert_eq!(fx::WORKGROUP_SIZE, [GROUP, 1, 1]);
    let items = dev.buffer("items", bytemuck::cast_slice(&vec![SENTINEL; (initial + n) as usize]), USAGE);
    let counter = dev.buffer("items counter", &initial.to_le_bytes(), USAGE);
    let slots = dev.buffer("slots", bytemuck::cast_slice(&vec![SENTINEL; 2 * n as usize]), USAGE);
    let resources = fx::Resources { items: &items, items_counter: &counter, slots: &slots };
    let run = |pass: fx::Pass, threads: u32| {
        let layouts = fx::Layouts::new(device, pass, fx::Permutation::default());
        let pipeline = fx::create_compute_pipeline(device, &layouts);
        let groups = fx::BindGroups::new(device, &layouts, &resources).expect("every resource given");
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut p = encoder.begin_compute_pass(&Default::default());
            p.set_pipeline(&pipeline);
            groups.set(&mut p);
            let [x, y, z] = fx::dispatch_size([threads, 1, 1]);
            p.dispatch_workgroups(x, y, z);
        }
        dev.queue.submit([encoder.finish()]);
    };
    run(fx::Pass::Produce, n);
    let (u0, u1) = (read_words(&dev, &items), read_words(&dev, &slots));
    let count = copy_structure_count(&dev, &counter, 0)[0];
    check_produce("the produce pass", initial, n, &u0, &u1[..n as usize], count);
    run(fx::Pass::Consume, GROUP);
    let u1 = read_words(&dev, &slots);
    let (expected, after) = model(initial + n, GROUP, true);
    let got: BTreeSet<u32> = u1[..2 * GROUP as usize].chunks(2).map(|p| p[0]).collect();
    assert_eq!(got, expected, "the consume pass's slots");
    for p in u1[..2 * GROUP as usize].chunks(2) {
        assert_eq!(p[1], u0[p[0] as usize], "the item consumed at slot {}", p[0]);
    }
    assert_eq!(read_words(&dev, &counter)[0], after, "the count after both passes");
}

// ------------------------------------------------------------------ without a GPU

/// The counter is a binding of its own after the views' ranges (896 + register), an
/// `atomic<u32>` word; the buffer's own words stay plain `u32`s when only the counter is atomic.
#[test]
fn the_counter_is_a_binding_of_its_own() {
    let t = translate(&produce(), &TranslateOptions::default()).expect("translates");
    let b: Vec<_> = t.bindings.iter().map(|b| (b.name.as_str(), b.binding, b.kind.clone())).collect();
    assert_eq!(
        b,
        [
            ("u0", 160, ResourceKind::StorageBuffer { read_only: false }),
            ("u1", 161, ResourceKind::StorageBuffer { read_only: false }),
            ("u0_counter", 896, ResourceKind::UavCounter),
        ]
    );
    assert_eq!(dxbc_wgsl::bindings::COUNTER_BASE, 896);
    assert!(t.wgsl.contains("var<storage, read_write> u0_counter: atomic<u32>;"), "{}", t.wgsl);
    assert!(t.wgsl.contains("var<storage, read_write> u0_: array<u32>;"), "{}", t.wgsl);
    assert!(t.wgsl.contains("atomicAdd((&u0_counter), 1u)"), "{}", t.wgsl);
    let t = translate(&consume(), &TranslateOptions::default()).expect("translates");
    assert!(t.wgsl.contains("atomicSub((&u0_counter), 1u)"), "{}", t.wgsl);
    // A UAV at u5 has its counter at 901.
    let decls = [dcl_uav_structured(5, 4, false)];
    let body = [ins(IMM_ATOMIC_ALLOC, &[dst(TEMP, 0, "x"), memory(UAV, 5)])];
    let t = translate(&compute_shader([1, 1, 1], &decls, 1, &body), &TranslateOptions::default()).expect("u5");
    assert!(t.bindings.iter().any(|b| b.binding == 901 && b.kind == ResourceKind::UavCounter), "{:?}", t.bindings);
    // cs_5_1, an element of a UAV array: `dcl_uav_structured U0[2:5], 4` and
    // `imm_atomic_alloc r0.x, U0[3]` bind register u3 and its counter at 899.
    let decls = [
        vec![DCL_THREAD_GROUP | (4 << 24), 1, 1, 1],
        vec![DCL_UAV_STRUCTURED | (7 << 24), (UAV << 12) | (3 << 20), 0, 2, 5, 4, 0],
    ];
    let body = [ins(IMM_ATOMIC_ALLOC, &[dst(TEMP, 0, "x"), vec![(UAV << 12) | (2 << 20), 0, 3]])];
    let t = translate(&shader(0x0005_0051, &[], &[], &decls, 1, &body), &TranslateOptions::default()).expect("U0[3]");
    let b: Vec<_> = t.bindings.iter().map(|b| (b.name.as_str(), b.register.slot, b.binding, b.kind.clone())).collect();
    assert_eq!(
        b,
        [
            ("u0_3", 3, 163, ResourceKind::StorageBuffer { read_only: false }),
            ("u0_3_counter", 3, 899, ResourceKind::UavCounter)
        ]
    );
    // A counter no instruction uses binds nothing: the `_opc` flag alone does not.
    let decls = [dcl_uav_structured(0, 4, true)];
    let body = [ins(STORE_STRUCTURED, &[dst(UAV, 0, "x"), imm([0; 4]), imm([0; 4]), imm([1; 4])])];
    let t = translate(&compute_shader([1, 1, 1], &decls, 1, &body), &TranslateOptions::default()).expect("opc");
    assert_eq!(t.bindings.len(), 1, "{:?}", t.bindings);
}

fn refusal(blob: &[u8]) -> dxbc_wgsl::Refusal {
    match translate(blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A counter on a UAV that has none (raw), and counters outside register space 0, are refused
/// with their reasons.
#[test]
fn counters_outside_their_plan_are_refused() {
    let decls = [dcl_uav_raw(0, false)];
    let body = [ins(IMM_ATOMIC_ALLOC, &[dst(TEMP, 0, "x"), memory(UAV, 0)])];
    let r = refusal(&compute_shader([1, 1, 1], &decls, 1, &body));
    assert_eq!(r.reason, RefusalReason::ResourceUnsupported, "{r}");
    assert_eq!(r.opcode, Some("imm_atomic_alloc"), "{r}");
    assert!(r.detail.contains("not a structured UAV"), "{r}");

    // cs_5_1: `dcl_uav_structured U0[2:2], 4, space=1` and `imm_atomic_consume r0.x, U0[2]`.
    let decls = [
        vec![DCL_THREAD_GROUP | (4 << 24), 1, 1, 1],
        vec![DCL_UAV_STRUCTURED | (7 << 24), (UAV << 12) | (3 << 20), 0, 2, 2, 4, 1],
    ];
    let body = [ins(IMM_ATOMIC_CONSUME, &[dst(TEMP, 0, "x"), vec![(UAV << 12) | (2 << 20), 0, 2]])];
    let blob = shader(0x0005_0051, &[], &[], &decls, 1, &body);
    let r = refusal(&blob);
    assert_eq!(r.reason, RefusalReason::BindingOutOfRange, "{r}");
    assert!(r.detail.contains("u2, space1") && r.detail.contains("space 0 only"), "{r}");
}
