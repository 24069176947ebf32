// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 2>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();

    let _e4 = cb0_[0];
    let _e8 = cb0_[1];
    o0_ = bitcast<vec4<u32>>((bitcast<vec4<i32>>(_e4.xyzw) >> (_e8.xyzw & vec4(31u))));
    let _e15 = o0_;
    return PixelOutput(_e15);
}
