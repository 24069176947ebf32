//! View formats are keyed by register and register space, as the application binds views, not
//! by the declaration's logical id: in SM5.1 `dcl_resource_buffer T1[2:2], space=1` is register
//! `t2` of space 1 (id 1), and only `t2,space1=...` gives its format.
//!
//! The shader is vkd3d's `test_register_space` compute shader (../shared/corpus/vkd3d): typed
//! `Buffer` SRVs at t2 of spaces 1 and 2 and typed `RWBuffer`s at u3 of spaces 1 and 2, next to
//! raw and structured views at the same registers. Without the corpus the test says it skips.

use dxbc_wgsl::{translate, RefusalReason, TranslateError, TranslateOptions};

const SHADER: &str = "vkd3d/d3d12/test_register_space__cs_code.dxbc";

fn refusal(blob: &[u8], settings: &[&str]) -> Option<(RefusalReason, String)> {
    let mut options = TranslateOptions::default();
    for s in settings {
        options.set_view_format(s).unwrap();
    }
    match translate(blob, &options) {
        Ok(_) => None,
        Err(TranslateError::Unsupported(r)) => Some((r.reason, r.detail)),
        Err(e) => panic!("{SHADER}: {e}"),
    }
}

#[test]
fn typed_view_formats_follow_register_and_space() {
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("typed_view_formats_follow_register_and_space: SKIPPED: no corpus (DXBC_WGSL_CORPUS)");
        return;
    };
    let blob = std::fs::read(corpus.join(SHADER)).unwrap();

    // Nothing given: the first typed Buffer SRV is named by register and space.
    let (reason, detail) = refusal(&blob, &[]).expect("refused without formats");
    assert_eq!(reason, RefusalReason::TypedBufferFormatUnknown, "{detail}");
    assert!(detail.contains("t2, space"), "{detail}");

    // Keyed by logical id (T1, T4, U2, U5) or by register in the wrong space: still unknown.
    for wrong in [
        &["t1=r32uint", "t4=r32uint", "u2=r32uint", "u5=r32uint"][..],
        &["t2=r32uint", "u3=r32uint"][..],
        &["t2,space3=r32uint", "u3,space3=r32uint"][..],
    ] {
        let (reason, detail) = refusal(&blob, wrong).expect("refused");
        assert_eq!(reason, RefusalReason::TypedBufferFormatUnknown, "{wrong:?}: {detail}");
    }
    // The SRVs' formats alone: the typed UAVs are next, named by register and space.
    let (reason, detail) = refusal(&blob, &["t2,space1=r32uint", "t2,space2=r32uint"]).expect("refused");
    assert_eq!(reason, RefusalReason::TypedUavFormatUnknown, "{detail}");
    assert!(detail.contains("u3, space"), "{detail}");

    // All four given by register and space: the views translate, and what remains refused is
    // not a view format (the structured UAV in space 4, past the binding plan; its counter and
    // the one in space 3 would be refused next: counters are bound in space 0 only).
    let all = ["t2,space1=r32uint", "t2,space2=r32uint", "u3,space1=r32uint", "u3,space2=r32uint"];
    if let Some((reason, detail)) = refusal(&blob, &all) {
        assert!(
            !matches!(reason, RefusalReason::TypedBufferFormatUnknown | RefusalReason::TypedUavFormatUnknown),
            "{reason}: {detail}"
        );
        println!("with every view format: {reason}: {detail}");
    }
}

#[test]
fn view_format_settings_parse_register_and_space() {
    let mut o = TranslateOptions::default();
    o.set_view_format("u1,space2=rgba8unorm").unwrap();
    o.set_view_format("u1=r32uint").unwrap();
    o.set_view_format(" t3 , space1 = R32G32B32A32_FLOAT").unwrap();
    let uavs: Vec<_> = o.typed_uav_formats.iter().map(|(r, f)| (r.register, r.space, f.wgsl_name())).collect();
    assert_eq!(uavs, [(1, 2, "rgba8unorm"), (1, 0, "r32uint")]);
    assert_eq!(o.typed_buffer_formats.len(), 1);
    assert_eq!((o.typed_buffer_formats[0].0.register, o.typed_buffer_formats[0].0.space), (3, 1));
    // Setting the same register and space again replaces the format.
    o.set_view_format("u1,space2=r32float").unwrap();
    assert_eq!(o.typed_uav_formats.len(), 2);
    o.set_view_format("U4=r32uint").unwrap();
    assert!(o.typed_uav_formats.iter().any(|(r, _)| r.register == 4));
    let e = o.set_view_format("u4294967296=r32uint").unwrap_err();
    assert!(e.contains("out of range"), "{e}");
    for bad in [
        "u1,space=r32uint",
        "u1,2=r32uint",
        "b0=r32uint",
        "u=r32uint",
        "u1,spacex=r32uint",
        "u1",
        "u+0=r32uint",
        "u0,space+0=r32uint",
    ] {
        assert!(o.set_view_format(bad).is_err(), "{bad} accepted");
    }
}
