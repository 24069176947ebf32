// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@fragment 
fn main(@location(1) v1_in: vec4<f32>) -> PixelOutput {
    var v1_: vec4<f32>;
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<f32> = vec4<f32>();

    v1_ = v1_in;
    let _e6 = v1_;
    let _e8 = dpdyCoarse(_e6.xyzw);
    r0_ = _e8;
    let _e9 = r0_;
    o0_ = ((_e9.xyzw * vec4<f32>(240f, 240f, 240f, 240f)) + vec4<f32>(0.5f, 0.5f, 0.5f, 0.5f));
    let _e23 = o0_;
    return PixelOutput(_e23);
}
