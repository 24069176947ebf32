//! Per-primitive selection (`docs/per-primitive.md`): the same source generated code embeds
//! (`dxbc-wgsl-build/src/codegen/select_runtime.rs`, std and wgpu only), compiled here for the
//! tests and `gpu_validate`.

include!(concat!(env!("CARGO_MANIFEST_DIR"), "/../dxbc-wgsl-build/src/codegen/select_runtime.rs"));

#[cfg(test)]
mod tests {
    #[test]
    fn the_group_is_the_library_s() {
        assert_eq!(super::SELECT_GROUP, dxbc_wgsl::select::SELECT_GROUP);
    }
}
