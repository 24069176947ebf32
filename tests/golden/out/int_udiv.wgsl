// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 2>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();
    var r0_: vec4<u32> = vec4<u32>();
    var r1_: vec4<u32> = vec4<u32>();

    let _e9 = vec2<u32>(0u, 0u);
    o0_.z = _e9.x;
    o0_.w = _e9.y;
    let _e15 = cb0_[0];
    let _e18 = cb0_[1];
    let _e26 = cb0_[0];
    let _e29 = cb0_[1];
    r0_.x = select((_e15.x / _e18.x), 4294967295u, (_e18.x == 0u));
    r1_.x = select((_e26.x % _e29.x), 4294967295u, (_e29.x == 0u));
    let _e38 = r0_;
    o0_.x = _e38.x;
    let _e41 = r1_;
    o0_.y = _e41.x;
    let _e44 = o0_;
    return PixelOutput(_e44);
}
