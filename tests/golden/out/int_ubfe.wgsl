// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();
    var r0_: vec4<u32> = vec4<u32>();

    let _e6 = cb0_[0];
    r0_ = bitcast<vec4<u32>>(_e6.xyzw);
    let _e9 = r0_;
    let _e11 = r0_;
    let _e13 = r0_;
    let _e14 = _e13.zzzz;
    let _e16 = vec4(31u);
    let _e17 = (_e9.xxxx & _e16);
    let _e18 = (_e11.yyyy & _e16);
    r0_ = vec4<u32>(extractBits(_e14.x, _e18.x, _e17.x), extractBits(_e14.y, _e18.y, _e17.y), extractBits(_e14.z, _e18.z, _e17.z), extractBits(_e14.w, _e18.w, _e17.w));
    let _e36 = r0_;
    o0_ = _e36.xyzw;
    let _e38 = o0_;
    return PixelOutput(_e38);
}
