// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(32) 
var t0_: texture_2d<f32>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    let _e11 = (vec2<i32>(0i, 0i) + vec2<i32>(1i, 3i));
    let _e16 = bitcast<vec2<u32>>(_e11);
    let _e18 = textureNumLevels(t0_);
    let _e22 = min(0u, (_e18 - 1u));
    let _e23 = textureDimensions(t0_, _e22);
    let _e32 = textureLoad(t0_, min(_e16, (_e23 - vec2(1u))), _e22);
    r0_ = select(vec4<f32>(), _e32, ((0u < _e18) && (all((_e16 < _e23)) && all((_e11 >= vec2(0i)))))).xyzw;
    let _e36 = r0_;
    o0_ = _e36.xyzw;
    let _e38 = o0_;
    return PixelOutput(_e38);
}
