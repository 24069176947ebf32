// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(16) 
var s0_: sampler;
@group(1) @binding(32) 
var t0_: texture_2d<f32>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    let _e12 = textureGather(0, t0_, s0_, vec2<f32>(0.2f, 0.2f), vec2<i32>(1i, 0i));
    r0_ = _e12.xyzw;
    let _e14 = r0_;
    o0_ = _e14.xyzw;
    let _e16 = o0_;
    return PixelOutput(_e16);
}
