// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 4.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
var<private> icb: array<vec4<u32>, 6> = array<vec4<u32>, 6>(vec4<u32>(310u, 2u, 1117257728u, 0u), vec4<u32>(111u, 7u, 1118240768u, 0u), vec4<u32>(212u, 2139095040u, 1056964608u, 0u), vec4<u32>(4294966783u, 4286578688u, 1061158912u, 0u), vec4<u32>(4294966978u, 2143289344u, 3204448256u, 0u), vec4<u32>(0u, 0u, 0u, 0u));

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();

    o0_.w = 1f;
    let _e9 = cb0_[0];
    r0_.x = bitcast<u32>(_e9.x);
    let _e13 = r0_;
    let _e18 = icb[min(_e13.x, 5u)];
    o0_.y = f32(select(vec4<u32>(), _e18, (_e13.x < 6u)).y);
    let _e26 = r0_;
    let _e31 = icb[min(_e26.x, 5u)];
    o0_.x = f32(bitcast<i32>(select(vec4<u32>(), _e31, (_e26.x < 6u)).x));
    let _e40 = r0_;
    let _e45 = icb[min(_e40.x, 5u)];
    o0_.z = bitcast<f32>(select(vec4<u32>(), _e45, (_e40.x < 6u)).z);
    let _e53 = o0_;
    return PixelOutput(_e53);
}
