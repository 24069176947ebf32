// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 14>;
@group(1) @binding(16) 
var s0_: sampler;
@group(1) @binding(32) 
var t0_: texture_2d<f32>;

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
    let _e15 = v2_;
    let _e17 = textureSample(t0_, s0_, _e15.xy);
    r0_ = _e17.xyzw;
    let _e19 = r0_;
    let _e21 = v0_;
    r0_ = (_e19.xyzw * _e21.xyzw);
    let _e25 = cb0_[13];
    let _e27 = r0_;
    let _e29 = r0_;
    let _e33 = ((_e25.xyz * _e27.www) + -(_e29.xyz));
    r1_.x = _e33.x;
    r1_.y = _e33.y;
    r1_.z = _e33.z;
    let _e40 = v1_;
    let _e42 = r1_;
    let _e44 = r0_;
    let _e47 = ((_e40.www * _e42.xyz) + _e44.xyz);
    o0_.x = _e47.x;
    o0_.y = _e47.y;
    o0_.z = _e47.z;
    let _e54 = r0_;
    o0_.w = _e54.w;
    let _e57 = o0_;
    return PixelOutput(_e57);
}
