// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();

    r0_.x = 0u;
    loop {
        let _e7 = r0_;
        r0_.y = select(0u, 4294967295u, (bitcast<i32>(_e7.x) >= 255i));
        let _e16 = r0_;
        if (_e16.y != 0u) {
            break;
        }
        let _e20 = r0_;
        r0_.y = bitcast<u32>(f32(bitcast<i32>(_e20.x)));
        let _e26 = r0_;
        let _e30 = cb0_[0];
        r0_.y = select(0u, 4294967295u, (bitcast<f32>(_e26.y) == _e30.x));
        o0_ = vec4<f32>(1f, 0f, 0f, 0f);
        let _e42 = r0_;
        if (_e42.y != 0u) {
            let _e46 = o0_;
            return PixelOutput(_e46);
        }
        let _e48 = r0_;
        r0_.x = bitcast<u32>((bitcast<i32>(_e48.x) + 1i));
    }
    o0_ = vec4<f32>(0f, 0f, 0f, 0f);
    let _e60 = o0_;
    return PixelOutput(_e60);
}
