// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();

    let _e4 = cb0_[0];
    let _e7 = cb0_[0];
    let _e10 = cb0_[0];
    let _e11 = _e10.zzzz;
    let _e13 = cb0_[0];
    let _e14 = _e13.wwww;
    let _e16 = vec4(31u);
    let _e17 = (_e4.xxxx & _e16);
    let _e18 = (_e7.yyyy & _e16);
    o0_ = vec4<u32>(insertBits(_e14.x, _e11.x, _e18.x, _e17.x), insertBits(_e14.y, _e11.y, _e18.y, _e17.y), insertBits(_e14.z, _e11.z, _e18.z, _e17.z), insertBits(_e14.w, _e11.w, _e18.w, _e17.w));
    let _e40 = o0_;
    return PixelOutput(_e40);
}
