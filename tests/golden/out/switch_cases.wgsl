// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();
    var r1_: vec4<u32> = vec4<u32>();

    let _e8 = cb0_[0];
    r1_ = bitcast<vec4<u32>>(_e8.xyzw);
    let _e11 = r1_;
    r1_.x = _e11.x;
    let _e14 = r1_;
    switch _e14.x {
        case 0u: {
            r0_ = vec4<f32>(3f, 3f, 3f, 3f);
            break;
        }
        case 1u: {
            r0_ = vec4<f32>(4f, 4f, 4f, 4f);
            break;
        }
        default: {
            r0_ = vec4<f32>(5f, 5f, 5f, 5f);
            break;
        }
    }
    let _e31 = r0_;
    r1_ = bitcast<vec4<u32>>(_e31.xyzw);
    let _e34 = r1_;
    o0_ = bitcast<vec4<f32>>(_e34.xyzw);
    let _e37 = o0_;
    return PixelOutput(_e37);
}
