// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
@group(1) @binding(16) 
var s0_: sampler_comparison;
@group(1) @binding(32) 
var t0_: texture_depth_2d;

@fragment 
fn main(@builtin(position) v0_position: vec4<f32>) -> PixelOutput {
    var v0_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    v0_ = v0_position;
    let _e9 = v0_;
    let _e14 = (_e9.xy * vec2<f32>(0.0015625f, 0.0020833334f));
    r0_.x = _e14.x;
    r0_.y = _e14.y;
    let _e19 = r0_;
    let _e22 = cb0_[0];
    let _e24 = textureSampleCompare(t0_, s0_, _e19.xy, _e22.x);
    r0_.x = vec4(_e24).x;
    let _e28 = r0_;
    o0_ = _e28.xxxx;
    let _e30 = o0_;
    return PixelOutput(_e30);
}
