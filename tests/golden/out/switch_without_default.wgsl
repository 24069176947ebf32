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
    switch _e4.x {
        case 0u: {
            o0_ = vec4<u32>(1u, 1u, 1u, 1u);
            let _e11 = o0_;
            return PixelOutput(_e11);
        }
        case 3u: {
            o0_ = vec4<u32>(2u, 2u, 2u, 2u);
            let _e18 = o0_;
            return PixelOutput(_e18);
        }
        default: {
        }
    }
    o0_ = vec4<u32>(3u, 3u, 3u, 3u);
    let _e25 = o0_;
    return PixelOutput(_e25);
}
