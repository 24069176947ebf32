// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(16) 
var s0_: sampler_comparison;
@group(1) @binding(32) 
var t0_: texture_depth_2d;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    let _e10 = textureGatherCompare(t0_, s0_, vec2<f32>(0.2f, 0.2f), 0.1f);
    r0_ = _e10.xyzw;
    let _e12 = r0_;
    o0_ = _e12.xyzw;
    let _e14 = o0_;
    return PixelOutput(_e14);
}
