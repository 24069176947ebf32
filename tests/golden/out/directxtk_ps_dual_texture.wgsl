// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 2>;
@group(1) @binding(16) 
var s0_: sampler;
@group(1) @binding(17) 
var s1_: sampler;
@group(1) @binding(32) 
var t0_: texture_2d<f32>;
@group(1) @binding(33) 
var t1_: texture_2d<f32>;

@fragment 
fn main(@location(0) v0_in: vec4<f32>, @location(1) v1_in: vec4<f32>, @location(2) v2_in: vec4<f32>) -> PixelOutput {
    var v0_: vec4<f32>;
    var v1_: vec4<f32>;
    var v2_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();
    var r1_: vec4<f32> = vec4<f32>();

    v0_ = v0_in;
    v1_ = v1_in;
    v2_ = v2_in;
    let _e17 = v2_;
    let _e19 = textureSample(t1_, s1_, _e17.zw);
    r0_ = _e19.xyzw;
    let _e21 = r0_;
    let _e23 = v0_;
    r0_ = (_e21.xyzw * _e23.xyzw);
    let _e26 = v2_;
    let _e28 = textureSample(t0_, s0_, _e26.xy);
    r1_ = _e28.xyzw;
    let _e30 = r1_;
    r1_ = (_e30.xyzw * vec4<f32>(2f, 2f, 2f, 1f));
    let _e38 = r0_;
    let _e40 = r1_;
    r0_ = (_e38.xyzw * _e40.xyzw);
    let _e44 = cb0_[1];
    let _e46 = r0_;
    let _e48 = r0_;
    let _e52 = ((_e44.xyz * _e46.www) + -(_e48.xyz));
    r1_.x = _e52.x;
    r1_.y = _e52.y;
    r1_.z = _e52.z;
    let _e59 = v1_;
    let _e61 = r1_;
    let _e63 = r0_;
    let _e66 = ((_e59.www * _e61.xyz) + _e63.xyz);
    o0_.x = _e66.x;
    o0_.y = _e66.y;
    o0_.z = _e66.z;
    let _e73 = r0_;
    o0_.w = _e73.w;
    let _e76 = o0_;
    return PixelOutput(_e76);
}
