// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@fragment 
fn main(@location(1) v1_in: vec4<f32>, @location(2) @interpolate(flat) v2_in: vec4<u32>) -> PixelOutput {
    var v1_: vec4<f32>;
    var v2_: vec4<u32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();
    var r1_: vec4<u32> = vec4<u32>();
    var r2_: vec4<f32> = vec4<f32>();

    v1_ = v1_in;
    v2_ = v2_in;
    let _e12 = v1_;
    r1_.x = bitcast<u32>(_e12.z);
    let _e16 = v2_;
    r1_.y = _e16.z;
    let _e19 = v2_;
    r1_.z = _e19.y;
    let _e22 = v2_;
    r1_.w = _e22.x;
    let _e25 = v1_;
    let _e26 = _e25.xy;
    r2_.x = _e26.x;
    r2_.y = _e26.y;
    let _e31 = r2_;
    r2_.z = _e31.y;
    let _e34 = r2_;
    let _e36 = r1_;
    r1_.w = bitcast<u32>((_e34.z + bitcast<f32>(_e36.w)));
    let _e42 = r1_;
    r0_.x = _e42.w;
    let _e45 = r1_;
    let _e48 = r1_;
    r1_.y = bitcast<u32>((bitcast<i32>(_e45.z) + bitcast<i32>(_e48.y)));
    let _e54 = r1_;
    r1_.y = bitcast<u32>(f32(_e54.y));
    let _e59 = r1_;
    r0_.y = _e59.y;
    let _e62 = r1_;
    r0_.z = _e62.x;
    let _e65 = r2_;
    r1_.x = bitcast<u32>(_e65.x);
    let _e69 = r1_;
    r0_.w = _e69.x;
    let _e72 = r0_;
    r1_ = _e72.xyzw;
    let _e74 = r1_;
    o0_ = bitcast<vec4<f32>>(_e74.xyzw);
    let _e77 = o0_;
    return PixelOutput(_e77);
}
