// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).
// instruction 12 (`sample`) needs uniform control flow in WGSL but sits where WGSL's uniformity analysis cannot prove it; D3D defines derivatives per 2x2 quad there.
diagnostic(off, derivative_uniformity);

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 5>;
@group(1) @binding(16) 
var s0_: sampler;
@group(1) @binding(32) 
var t0_: texture_2d<f32>;

@fragment 
fn main(@location(1) v1_in: vec4<f32>) -> PixelOutput {
    var v1_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();
    var r1_: vec4<u32> = vec4<u32>();
    var r2_: vec4<f32> = vec4<f32>();

    v1_ = v1_in;
    r0_ = vec4<f32>(0f, 0f, 0f, 0f);
    r1_.x = 0u;
    loop {
        let _e20 = r1_;
        r1_.y = select(0u, 4294967295u, (bitcast<i32>(_e20.x) >= 4i));
        let _e29 = r1_;
        if (_e29.y != 0u) {
            break;
        }
        let _e33 = v1_;
        let _e35 = r1_;
        let _e40 = cb0_[min(_e35.x, 4u)];
        let _e47 = bitcast<vec2<u32>>((_e33.xy + select(vec4<f32>(), _e40, (_e35.x < 5u)).xy));
        r1_.y = _e47.x;
        r1_.z = _e47.y;
        let _e52 = r1_;
        let _e55 = textureSample(t0_, s0_, bitcast<vec2<f32>>(_e52.yz));
        r2_ = _e55.xyzw;
        let _e57 = r0_;
        let _e59 = r2_;
        r0_ = (_e57.xyzw + _e59.xyzw);
        let _e62 = r1_;
        r1_.x = bitcast<u32>((bitcast<i32>(_e62.x) + 1i));
    }
    let _e69 = r0_;
    o0_ = (_e69.xyzw * vec4<f32>(0.25f, 0.25f, 0.25f, 0.25f));
    let _e77 = o0_;
    return PixelOutput(_e77);
}
