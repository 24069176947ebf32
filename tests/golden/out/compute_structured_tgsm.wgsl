// Translated by dxbc-wgsl 0.1.0 from a compute shader (shader model 5.0).

@group(0) @binding(160) 
var<storage, read_write> u0_: array<atomic<u32>>;
@group(0) @binding(161) 
var<storage, read_write> u1_: array<u32>;
var<workgroup> g0_: array<atomic<u32>, 32>;

@compute @workgroup_size(32, 1, 1) 
fn main(@builtin(local_invocation_index) local_invocation_index: u32, @builtin(workgroup_id) workgroup_id: vec3<u32>) {
    var vThreadGroupID: vec4<u32>;
    var r0_: vec4<u32> = vec4<u32>();
    var r1_: vec4<u32> = vec4<u32>();
    var atomic_old_33_: u32 = 0u;

    vThreadGroupID = vec4<u32>(workgroup_id.x, workgroup_id.y, workgroup_id.z, 0u);
    if (local_invocation_index == 0u) {
        let _e17 = vThreadGroupID;
        r0_.x = bitcast<u32>((bitcast<i32>(_e17.x) << (1u & 31u)));
        r0_.y = 0u;
        loop {
            let _e28 = r0_;
            r0_.z = select(0u, 4294967295u, (_e28.y >= 32u));
            let _e36 = r0_;
            if (_e36.z != 0u) {
                break;
            }
            let _e41 = r0_;
            let _e54 = r0_;
            let _e57 = (((_e41.y * 1u) + (0u >> 2u)) + 0u);
            if ((_e57 < 32u) && ((_e41.y < ((32u * 4u) / 4u)) && ((0u + 0u) < 4u))) {
                atomicStore((&g0_[min(_e57, 31u)]), _e54.x);
            }
            let _e69 = r0_;
            r0_.y = bitcast<u32>((bitcast<i32>(_e69.y) + 1i));
        }
    }
    workgroupBarrier();
    r0_.x = local_invocation_index;
    r0_.y = 0u;
    let _e80 = r0_;
    let _e82 = r0_;
    let _e95 = (((_e80.x * 1u) + (_e82.y >> 2u)) + 0u);
    if ((_e95 < 32u) && ((_e80.x < ((32u * 4u) / 4u)) && ((_e82.y + 0u) < 4u))) {
        let _e108 = atomicAdd((&g0_[min(_e95, 31u)]), 1u);
    }
    workgroupBarrier();
    let _e111 = vec2<u32>(0u, 0u);
    r0_.x = _e111.x;
    r0_.y = _e111.y;
    loop {
        let _e116 = r0_;
        r0_.z = select(0u, 4294967295u, (_e116.y >= 32u));
        let _e124 = r0_;
        if (_e124.z != 0u) {
            break;
        }
        let _e128 = r0_;
        r1_.y = bitcast<u32>((bitcast<i32>(_e128.y) + 1i));
        let _e136 = r0_;
        let _e150 = (((_e136.y * 1u) + (0u >> 2u)) + 0u);
        let _e162 = atomicLoad((&g0_[min(_e150, 31u)]));
        r0_.z = select(0u, _e162, ((_e150 < 32u) && ((_e136.y < ((32u * 4u) / 4u)) && ((0u + 0u) < 4u))));
        let _e166 = r0_;
        let _e169 = r0_;
        r1_.x = bitcast<u32>((bitcast<i32>(_e166.x) + bitcast<i32>(_e169.z)));
        let _e175 = r1_;
        let _e176 = _e175.xy;
        r0_.x = _e176.x;
        r0_.y = _e176.y;
    }
    let _e181 = vThreadGroupID;
    r0_.y = bitcast<u32>((bitcast<i32>(_e181.x) << (2u & 31u)));
    let _e191 = r0_;
    let _e196 = ((_e191.y >> 2u) + 0u);
    let _e199 = r0_;
    if (_e196 < arrayLength((&u0_))) {
        let _e204 = atomicExchange((&u0_[_e196]), _e199.x);
        atomic_old_33_ = _e204;
    }
    let _e205 = atomic_old_33_;
    r1_.x = _e205;
    let _e208 = r0_;
    let _e212 = r1_;
    let _e215 = ((_e208.y >> 2u) + 0u);
    if (_e215 < arrayLength((&u1_))) {
        u1_[_e215] = _e212.x;
    }
    return;
}
