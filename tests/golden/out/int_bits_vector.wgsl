// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

var<private> f32_bits_ffffffff: u32 = 4294967295u;
@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();
    var r0_: vec4<u32> = vec4<u32>();

    let _e6 = cb0_[0];
    let _e8 = firstLeadingBit(_e6.xy);
    let _e13 = vec2(4294967295u);
    let _e15 = select((vec2(31u) - _e8), _e13, (_e8 == _e13));
    r0_.x = _e15.x;
    r0_.y = _e15.y;
    let _e20 = r0_;
    let _e28 = bitcast<vec2<u32>>((-(bitcast<vec2<i32>>(_e20.xy)) + vec2<i32>(31i, 31i)));
    r0_.x = _e28.x;
    r0_.y = _e28.y;
    let _e34 = cb0_[0];
    let _e39 = r0_;
    let _e44 = select(vec2<u32>(4294967295u, 4294967295u), _e39.xy, (_e34.xy != vec2(0u)));
    o0_.z = _e44.x;
    o0_.w = _e44.y;
    let _e50 = cb0_[0];
    let _e52 = countOneBits(_e50.xy);
    o0_.x = _e52.x;
    o0_.y = _e52.y;
    let _e57 = o0_;
    return PixelOutput(_e57);
}
