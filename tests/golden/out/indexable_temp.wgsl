// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<f32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<f32> = vec4<f32>();
    var r0_: vec4<u32> = vec4<u32>();
    var x0_: array<vec4<f32>, 3> = array<vec4<f32>, 3>();

    let _e10 = vec3<f32>(1f, 0f, 0f);
    x0_[0].x = _e10.x;
    x0_[0].y = _e10.y;
    x0_[0].z = _e10.z;
    let _e21 = vec3<f32>(0f, 1f, 0f);
    x0_[1].x = _e21.x;
    x0_[1].y = _e21.y;
    x0_[1].z = _e21.z;
    let _e32 = vec3<f32>(0f, 0f, 1f);
    x0_[2].x = _e32.x;
    x0_[2].y = _e32.y;
    x0_[2].z = _e32.z;
    let _e41 = cb0_[0];
    r0_.x = select(select(u32(clamp(_e41.x, 0f, 4294967000f)), 4294967295u, (_e41.x >= 4294967300f)), 0u, ((bitcast<u32>(_e41.x) & 2147483647u) > 2139095040u));
    let _e59 = r0_;
    let _e64 = x0_[min(_e59.x, 2u)];
    let _e69 = select(vec4<f32>(), _e64, (_e59.x < 3u)).xyz;
    o0_.x = _e69.x;
    o0_.y = _e69.y;
    o0_.z = _e69.z;
    o0_.w = 1f;
    let _e78 = o0_;
    return PixelOutput(_e78);
}
