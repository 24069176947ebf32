//! A pass-through geometry shader over a million triangles draws (in however many chunks the
//! device's limits ask for) exactly what the same mesh draws without one.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../benches/pass_through.rs"]
mod pass_through;

#[test]
fn a_million_triangles_through_a_pass_through_geometry_shader_draw_what_they_draw_without_it() {
    let Some(dev) = common::device("geometry_large") else { return };
    let p = pass_through::passes(&dev);
    let n = 1_000_000;
    let data = pass_through::mesh(n);
    let vb = dev.buffer("mesh", bytemuck::cast_slice(&data), wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE);
    let size = pass_through::SIZE;
    let read =
        |dev: &dxbc_wgsl_gpu::conformance::Device| dev.read_texels(&p.texture, 1, 0, [0, 0, size, size]).expect("read");
    pass_through::frame(&dev, &p, &vb, n, false);
    let plain = read(&dev);
    pass_through::frame(&dev, &p, &vb, n, true);
    let geometry = read(&dev);
    let covered = plain.iter().filter(|&&t| t != 0xFF00_0000).count();
    // Each triangle covers 40% of its grid cell: a pixel centre lies in one that often.
    assert!(covered > (size * size / 4) as usize, "the mesh covers {covered} pixels only");
    let differ = plain.iter().zip(&geometry).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} of {} pixels differ", plain.len());
}
