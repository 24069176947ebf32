// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
@group(1) @binding(16) 
var s0_: sampler;
@group(1) @binding(32) 
var t0_: texture_2d<f32>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    let _e8 = cb0_[0];
    let _e9 = _e8.xy;
    r0_.x = _e9.x;
    r0_.y = _e9.y;
    let _e17 = r0_;
    let _e23 = textureDimensions(t0_);
    let _e24 = vec2<f32>(_e23);
    let _e36 = textureGather(0, t0_, s0_, (((floor(((vec2<f32>(0.2f, 0.2f) * _e24) - vec2(0.5f))) + vec2<f32>(extractBits(bitcast<vec2<i32>>(_e17.xy), 0u, 6u))) + vec2(1f)) / _e24));
    r0_ = _e36.xyzw;
    let _e38 = r0_;
    o0_ = _e38.xyzw;
    let _e40 = o0_;
    return PixelOutput(_e40);
}
