// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
@group(1) @binding(32) 
var<storage> t0_: array<u32>;

@fragment 
fn main(@builtin(position) v0_position: vec4<f32>) -> PixelOutput {
    var v0_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();

    v0_ = v0_position;
    let _e8 = v0_;
    let _e11 = cb0_[0];
    let _e14 = bitcast<vec2<u32>>((_e8.yx * _e11.yx));
    r0_.x = _e14.x;
    r0_.y = _e14.y;
    let _e19 = r0_;
    let _e26 = bitcast<vec2<u32>>((bitcast<vec2<f32>>(_e19.xy) * vec2<f32>(0.0020833334f, 0.0015625f)));
    r0_.x = _e26.x;
    r0_.y = _e26.y;
    let _e31 = r0_;
    let _e35 = bitcast<vec2<u32>>(trunc(bitcast<vec2<f32>>(_e31.xy)));
    r0_.x = _e35.x;
    r0_.y = _e35.y;
    let _e40 = r0_;
    let _e44 = cb0_[0];
    let _e46 = r0_;
    r0_.x = bitcast<u32>(((bitcast<f32>(_e40.x) * _e44.x) + bitcast<f32>(_e46.y)));
    let _e53 = r0_;
    let _e55 = bitcast<f32>(_e53.x);
    r0_.x = select(select(u32(clamp(_e55, 0f, 4294967000f)), 4294967295u, (_e55 >= 4294967300f)), 0u, ((bitcast<u32>(_e55) & 2147483647u) > 2139095040u));
    let _e73 = r0_;
    let _e81 = (_e73.x < ((arrayLength((&t0_)) * 4u) / 16u));
    let _e85 = ((_e73.x * 4u) + (0u >> 2u));
    let _e87 = (_e85 + 0u);
    let _e97 = t0_[_e87];
    let _e101 = (_e85 + 1u);
    let _e111 = t0_[_e101];
    let _e115 = (_e85 + 2u);
    let _e125 = t0_[_e115];
    let _e129 = (_e85 + 3u);
    let _e139 = t0_[_e129];
    o0_ = bitcast<vec4<f32>>(vec4<u32>(select(0u, _e97, ((_e87 < arrayLength((&t0_))) && (_e81 && ((0u + 0u) < 16u)))), select(0u, _e111, ((_e101 < arrayLength((&t0_))) && (_e81 && ((0u + 4u) < 16u)))), select(0u, _e125, ((_e115 < arrayLength((&t0_))) && (_e81 && ((0u + 8u) < 16u)))), select(0u, _e139, ((_e129 < arrayLength((&t0_))) && (_e81 && ((0u + 12u) < 16u))))));
    let _e144 = o0_;
    return PixelOutput(_e144);
}
