// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

enable primitive_index;

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@fragment 
fn main(@location(1) v1_in: vec4<f32>, @builtin(primitive_index) v2_primitive_index: u32) -> PixelOutput {
    var v1_: vec4<f32>;
    var v2_: vec4<u32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();
    var r1_: vec4<f32> = vec4<f32>();
    var r2_: vec4<f32> = vec4<f32>();

    v1_ = v1_in;
    v2_ = vec4<u32>(v2_primitive_index, 0u, 0u, 0u);
    let _e14 = v1_;
    r1_ = _e14.xyzw;
    let _e16 = v2_;
    r2_.x = bitcast<f32>(_e16.x);
    let _e20 = r1_;
    r0_ = _e20.xyzw;
    let _e22 = r2_;
    r1_.x = f32(bitcast<u32>(_e22.x));
    let _e27 = r1_;
    r1_.x = (_e27.x * 0.25f);
    let _e32 = r1_;
    r0_.y = _e32.x;
    let _e35 = r0_;
    r1_ = _e35.xyzw;
    let _e37 = r1_;
    o0_ = _e37.xyzw;
    let _e39 = o0_;
    return PixelOutput(_e39);
}
