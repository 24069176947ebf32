//! The shaders of `tests/execution/uav_counters.rs` and `tests/effects/uav_counters.effect.toml`:
//! compute shaders that allocate slots from a structured UAV's hidden counter
//! (`imm_atomic_alloc`, HLSL's `IncrementCounter`/`Append`) and consume them
//! (`imm_atomic_consume`, `DecrementCounter`/`Consume`).

use crate::asm::*;

/// Threads per group of both shaders (`dcl_thread_group 64, 1, 1`).
pub const GROUP: u32 = 64;

/// `cs_5_0`, an append: `r0.x = imm_atomic_alloc u0`, then `u0[r0.x] = vThreadID.x` and
/// `u1[vThreadID.x] = r0.x` (the slot each thread was given). `u0` is declared with the
/// order-preserving-counter flag (`dcl_uav_structured_opc`, as fxc writes a
/// `RWStructuredBuffer` whose counter is used), `u1` without.
pub fn produce() -> Vec<u8> {
    let decls = [dcl_uav_structured(0, 4, true), dcl_uav_structured(1, 4, false), dcl_thread_input(THREAD_ID, "x")];
    let body = [
        ins(IMM_ATOMIC_ALLOC, &[dst(TEMP, 0, "x"), memory(UAV, 0)]),
        ins(STORE_STRUCTURED, &[dst(UAV, 0, "x"), src(TEMP, 0, "xxxx"), imm([0; 4]), special(THREAD_ID, "xxxx")]),
        ins(STORE_STRUCTURED, &[dst(UAV, 1, "x"), special(THREAD_ID, "xxxx"), imm([0; 4]), src(TEMP, 0, "xxxx")]),
    ];
    compute_shader([GROUP, 1, 1], &decls, 1, &body)
}

/// `cs_5_0`, a consume: `r0.x = imm_atomic_consume u0`, `r0.y = u0[r0.x]`, then
/// `u1[vThreadID.x] = (r0.x, r0.y)` (8-byte elements). `u0` is declared without the flag, as
/// fxc declares append and consume buffers.
pub fn consume() -> Vec<u8> {
    let decls = [dcl_uav_structured(0, 4, false), dcl_uav_structured(1, 8, false), dcl_thread_input(THREAD_ID, "x")];
    let body = [
        ins(IMM_ATOMIC_CONSUME, &[dst(TEMP, 0, "x"), memory(UAV, 0)]),
        ins(LD_STRUCTURED, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm([0; 4]), src(UAV, 0, "xxxx")]),
        ins(STORE_STRUCTURED, &[dst(UAV, 1, "xy"), special(THREAD_ID, "xxxx"), imm([0; 4]), src(TEMP, 0, "xyxx")]),
    ];
    compute_shader([GROUP, 1, 1], &decls, 1, &body)
}

/// The blobs by file name, as `tests/fixtures/uav_counters/` holds them.
pub fn blobs() -> [(&'static str, Vec<u8>); 2] {
    [("Produce_CS.dxbc", produce()), ("Consume_CS.dxbc", consume())]
}
