// Translated by dxbc-wgsl 0.1.0 from a vertex shader (shader model 4.0).

enable clip_distances;

struct VertexOutput {
    @builtin(position) @invariant o0_: vec4<f32>,
    @location(1) o1_: vec4<f32>,
    @builtin(clip_distances) clip_distances: array<f32, 1>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;

@vertex 
fn main(@location(0) v0_in: vec4<f32>, @location(1) v1_in: vec4<f32>) -> VertexOutput {
    var v0_: vec4<f32>;
    var v1_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var o1_: vec4<f32> = vec4<f32>();
    var o2_: vec4<f32> = vec4<f32>();

    v0_ = v0_in;
    v1_ = v1_in;
    let _e11 = v0_;
    o0_ = _e11.xyzw;
    let _e13 = v1_;
    o1_.x = _e13.x;
    let _e17 = cb0_[0];
    let _e22 = cb0_[0];
    let _e25 = v1_;
    o2_.x = select(_e25.x, bitcast<f32>(_e22.y), (_e17.x != 0u));
    let _e29 = o0_;
    let _e30 = o1_;
    let _e32 = o2_;
    return VertexOutput(_e29, _e30, array<f32, 1>(_e32.x));
}
