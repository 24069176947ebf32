// Translated by dxbc-wgsl 0.1.0 from a vertex shader (shader model 5.0).

struct VertexOutput {
    @builtin(position) @invariant o0_: vec4<f32>,
    @location(1) o1_: vec4<f32>,
    @location(2) o2_: vec4<f32>,
    @location(3) o3_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;

@vertex 
fn main(@location(0) v0_in: vec4<f32>, @location(1) v1_in: vec4<f32>, @location(2) v2_in: vec4<f32>, @location(3) v3_in: vec4<f32>) -> VertexOutput {
    var v0_: vec4<f32>;
    var v1_: vec4<f32>;
    var v2_: vec4<f32>;
    var v3_: vec4<f32>;
    var v1_range: array<vec4<f32>, 3>;
    var o0_: vec4<f32> = vec4<f32>();
    var o1_: vec4<f32> = vec4<f32>();
    var o2_: vec4<f32> = vec4<f32>();
    var o3_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();

    v0_ = v0_in;
    v1_ = v1_in;
    v2_ = v2_in;
    v3_ = v3_in;
    let _e9 = v1_;
    let _e10 = v2_;
    let _e11 = v3_;
    v1_range = array<vec4<f32>, 3>(_e9, _e10, _e11);
    let _e24 = v0_;
    o0_ = _e24.xyzw;
    let _e27 = cb0_[0];
    r0_.x = bitcast<u32>(_e27.x);
    let _e31 = r0_;
    let _e36 = v1_range[min(_e31.x, 2u)];
    o1_ = select(vec4<f32>(), _e36, (_e31.x < 3u)).xyzw;
    let _e43 = cb0_[0];
    r0_.x = bitcast<u32>(_e43.y);
    let _e47 = r0_;
    let _e52 = v1_range[min(_e47.x, 2u)];
    o2_ = select(vec4<f32>(), _e52, (_e47.x < 3u)).xyzw;
    let _e59 = cb0_[0];
    r0_.x = bitcast<u32>(_e59.z);
    let _e63 = r0_;
    let _e68 = v1_range[min(_e63.x, 2u)];
    o3_ = select(vec4<f32>(), _e68, (_e63.x < 3u)).xyzw;
    let _e74 = o0_;
    let _e75 = o1_;
    let _e76 = o2_;
    let _e77 = o3_;
    return VertexOutput(_e74, _e75, _e76, _e77);
}
