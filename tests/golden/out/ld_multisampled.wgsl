// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 8>;
@group(1) @binding(32) 
var t0_: texture_multisampled_2d<f32>;

@fragment 
fn main(@builtin(position) v0_position: vec4<f32>) -> PixelOutput {
    var v0_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();

    v0_ = v0_position;
    let _e8 = v0_;
    let _e11 = cb0_[7];
    let _e14 = bitcast<vec2<u32>>((_e8.xy + _e11.xy));
    r0_.x = _e14.x;
    r0_.y = _e14.y;
    let _e19 = r0_;
    let _e21 = bitcast<vec2<f32>>(_e19.xy);
    let _e44 = bitcast<vec2<u32>>(select(select(vec2<i32>(clamp(_e21, vec2(-2147483600f), vec2(2147483500f))), vec2(2147483647i), (_e21 >= vec2(2147483600f))), vec2(0i), ((bitcast<vec2<u32>>(_e21) & vec2(2147483647u)) > vec2(2139095040u))));
    r0_.x = _e44.x;
    r0_.y = _e44.y;
    let _e51 = vec2<u32>(0u, 0u);
    r0_.z = _e51.x;
    r0_.w = _e51.y;
    let _e56 = r0_;
    let _e58 = bitcast<vec2<i32>>(_e56.xy);
    let _e63 = bitcast<vec2<u32>>(_e58);
    let _e65 = textureNumSamples(t0_);
    let _e70 = textureDimensions(t0_);
    let _e79 = textureLoad(t0_, min(_e63, (_e70 - vec2(1u))), min(0u, (_e65 - 1u)));
    r0_.x = bitcast<u32>(select(vec4<f32>(), _e79, ((0u < _e65) && (all((_e63 < _e70)) && all((_e58 >= vec2(0i)))))).x);
    let _e85 = r0_;
    o0_.x = bitcast<f32>(_e85.x);
    let _e89 = o0_;
    return PixelOutput(_e89);
}
