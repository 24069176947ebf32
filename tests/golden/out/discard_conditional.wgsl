// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();

    let _e4 = cb0_[0];
    if (_e4.x == 0u) {
        discard;
    }
    o0_ = vec4<f32>(0f, 1f, 0f, 1f);
    let _e13 = o0_;
    return PixelOutput(_e13);
}
