//! Deeply nested control flow is translated up to the nesting bound and refused past it — never
//! a stack overflow in the lowering, the uniformity analysis or naga.

use dxbc_wgsl::container::assemble;
use dxbc_wgsl::{translate, RefusalReason, TranslateError, TranslateOptions};

/// `ps_4_0` with `dcl_temps 1` and `depth` nested `if_nz r0.x` … `endif`, then `ret`.
fn nested_ifs(depth: usize) -> Vec<u8> {
    let mut w: Vec<u32> = vec![0x0000_0040, 0, 104 | (2 << 24), 1];
    for _ in 0..depth {
        // if_nz r0.x (select-1 x of temp 0).
        w.extend_from_slice(&[31 | (1 << 18) | (3 << 24), 0x0010_000A, 0]);
    }
    for _ in 0..depth {
        w.push(21 | (1 << 24));
    }
    w.push(62 | (1 << 24));
    w[1] = w.len() as u32;
    let shdr: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let empty_sig = vec![0u8; 8];
    assemble(&[(*b"ISGN", empty_sig.clone()), (*b"OSGN", empty_sig), (*b"SHDR", shdr)])
}

#[test]
fn nesting_up_to_the_bound_translates() {
    let t = translate(&nested_ifs(dxbc_wgsl::ir::MAX_NESTING), &TranslateOptions::default()).expect("translates");
    assert!(t.wgsl.matches("if (").count() >= dxbc_wgsl::ir::MAX_NESTING);
}

#[test]
fn nesting_past_the_bound_is_refused() {
    // Far past the bound, in a thread with a small stack: it must be refused, not overflow.
    // (20,000 levels: deep enough to overflow a naive recursion, short enough to stay under the
    // translator's instruction limit, which would refuse it first.)
    let blob = nested_ifs(20_000);
    let r = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || translate(&blob, &TranslateOptions::default()))
        .expect("spawn")
        .join()
        .expect("no panic");
    match r {
        Err(TranslateError::Unsupported(r)) => {
            assert_eq!(r.reason, RefusalReason::UnstructuredControlFlow);
            assert!(r.detail.contains("nested"), "{}", r.detail);
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}
