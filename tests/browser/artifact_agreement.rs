//! The web artifact and the generated Rust agree: both print the same pipeline plan
//! (`dxbc_wgsl_build::plan`), so for every example effect and every permutation the artifact's
//! bind group entries (binding, visibility, type), vertex buffer layout, primitive, blend and
//! depth-stencil states, shaders and constant-buffer layout equal what the generated module's
//! functions and structs give. The artifacts are example-engine's, from the same build as its
//! modules (`Builder::web_artifacts`). No browser needed.

use example_engine::effects::*;
use serde_json::{json, Value};

fn artifact(module: &str) -> Value {
    example_engine::web::artifact(module)
}

/// A wgpu bind group layout entry as the artifact spells it (WebGPU's names).
fn entry(e: &wgpu::BindGroupLayoutEntry) -> Value {
    let mut out = json!({ "binding": e.binding, "visibility": e.visibility.bits() });
    let dim = |d: wgpu::TextureViewDimension| match d {
        wgpu::TextureViewDimension::D1 => "1d",
        wgpu::TextureViewDimension::D2 => "2d",
        wgpu::TextureViewDimension::D2Array => "2d-array",
        wgpu::TextureViewDimension::Cube => "cube",
        wgpu::TextureViewDimension::CubeArray => "cube-array",
        wgpu::TextureViewDimension::D3 => "3d",
    };
    match e.ty {
        wgpu::BindingType::Buffer { ty, has_dynamic_offset, min_binding_size } => {
            let ty = match ty {
                wgpu::BufferBindingType::Uniform => "uniform",
                wgpu::BufferBindingType::Storage { read_only: true } => "read-only-storage",
                wgpu::BufferBindingType::Storage { read_only: false } => "storage",
            };
            out["buffer"] = json!({ "type": ty, "hasDynamicOffset": has_dynamic_offset,
                "minBindingSize": min_binding_size.map_or(0, |s| s.get()) });
        }
        wgpu::BindingType::Sampler(t) => {
            out["sampler"] =
                json!({ "type": if t == wgpu::SamplerBindingType::Comparison { "comparison" } else { "filtering" } });
        }
        wgpu::BindingType::Texture { sample_type, view_dimension, multisampled } => {
            let s = match sample_type {
                wgpu::TextureSampleType::Float { filterable: true } => "float",
                wgpu::TextureSampleType::Float { filterable: false } => "unfilterable-float",
                wgpu::TextureSampleType::Sint => "sint",
                wgpu::TextureSampleType::Uint => "uint",
                wgpu::TextureSampleType::Depth => "depth",
            };
            out["texture"] =
                json!({ "sampleType": s, "viewDimension": dim(view_dimension), "multisampled": multisampled });
        }
        other => out["other"] = json!(format!("{other:?}")),
    }
    out
}

/// The artifact's entry without what wgpu has no field for.
fn artifact_entry(e: &Value) -> Value {
    let mut e = e.clone();
    for k in ["resource", "register", "d3dViewDimension", "counter"] {
        e.as_object_mut().unwrap().remove(k);
    }
    e
}

fn compare_fn(f: wgpu::CompareFunction) -> &'static str {
    use wgpu::CompareFunction as C;
    match f {
        C::Never => "never",
        C::Less => "less",
        C::Equal => "equal",
        C::LessEqual => "less-equal",
        C::Greater => "greater",
        C::NotEqual => "not-equal",
        C::GreaterEqual => "greater-equal",
        C::Always => "always",
    }
}

fn kebab(debug: String) -> String {
    let mut out = String::new();
    for (i, ch) in debug.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push('-');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

fn blend(b: Option<wgpu::BlendState>) -> Value {
    match b {
        None => Value::Null,
        Some(b) => {
            let c = |c: wgpu::BlendComponent| {
                json!({ "operation": kebab(format!("{:?}", c.operation)), "srcFactor": kebab(format!("{:?}", c.src_factor)),
                    "dstFactor": kebab(format!("{:?}", c.dst_factor)) })
            };
            json!({ "color": c(b.color), "alpha": c(b.alpha) })
        }
    }
}

/// Checks one single-pass render effect's artifact against its generated module.
macro_rules! agree {
    ($module:ident) => {{
        use $module as m;
        let a = artifact(stringify!($module));
        let variants = a["passes"][0]["variants"].as_array().unwrap().clone();
        assert_eq!(variants.len(), m::Permutation::ALL.len(), "{}: permutations", stringify!($module));
        assert_eq!(a["shaders"].as_array().unwrap().iter().filter(|s| s["d3dStage"] != "runtime").count(), m::SHADERS.len());
        for (i, p) in m::Permutation::ALL.iter().enumerate() {
            assert_eq!(p.index(), Some(i));
            let pipeline = &variants[i]["pipelines"][0];
            // Bind group layouts.
            let groups = m::bind_group_layout_entries(*p);
            for (g, entries) in groups.iter().enumerate() {
                let id = pipeline["bindGroupLayouts"][g].as_u64().unwrap() as usize;
                let ours: Vec<Value> = a["bindGroupLayouts"][id]["entries"].as_array().unwrap().iter().map(artifact_entry).collect();
                let theirs: Vec<Value> = entries.iter().map(entry).collect();
                assert_eq!(ours, theirs, "{} permutation {i} group {g}", stringify!($module));
            }
            // Shaders.
            let shaders = p.shaders().expect("the permutation exists");
            let vs = &a["shaders"][pipeline["vertex"]["shader"].as_u64().unwrap() as usize];
            assert_eq!(vs["code"], shaders.vertex.wgsl, "{} permutation {i}: vertex shader", stringify!($module));
            assert_eq!(vs["entryPoint"], shaders.vertex.entry_point);
            if let Some(ps) = shaders.pixel {
                let f = &a["shaders"][pipeline["fragment"]["shader"].as_u64().unwrap() as usize];
                assert_eq!(f["code"], ps.wgsl, "{} permutation {i}: pixel shader", stringify!($module));
            } else {
                assert!(pipeline["fragment"].is_null());
            }
            // The vertex buffer.
            match p.vertex_buffer_layout() {
                Some(l) => {
                    let id = pipeline["vertexBuffers"][0].as_u64().unwrap() as usize;
                    let ours = &a["vertexBufferLayouts"][id];
                    assert_eq!(ours["arrayStride"], json!(l.array_stride), "{} permutation {i}: stride", stringify!($module));
                    let attrs: Vec<Value> = l.attributes.iter().map(|x| json!({
                        "format": kebab(format!("{:?}", x.format)).replace("32-x", "32x").replace("16-x", "16x").replace("8-x", "8x"),
                        "offset": x.offset, "shaderLocation": x.shader_location })).collect();
                    let ours_attrs: Vec<Value> = ours["attributes"].as_array().unwrap().iter()
                        .map(|x| json!({ "format": x["format"], "offset": x["offset"], "shaderLocation": x["shaderLocation"] })).collect();
                    assert_eq!(ours_attrs, attrs, "{} permutation {i}: attributes", stringify!($module));
                }
                None => assert!(pipeline["vertexBuffers"].as_array().is_none_or(|v| v.is_empty())),
            }
        }
        // States.
        let states = &a["passes"][0]["states"];
        let prim = m::primitive_state();
        let topology = kebab(format!("{:?}", prim.topology));
        assert_eq!(states["primitive"]["topology"], json!(topology));
        assert_eq!(states["primitive"]["frontFace"], json!(if prim.front_face == wgpu::FrontFace::Ccw { "ccw" } else { "cw" }));
        assert_eq!(states["primitive"]["cullMode"], json!(match prim.cull_mode { None => "none", Some(wgpu::Face::Front) => "front", Some(wgpu::Face::Back) => "back" }));
        assert_eq!(states["primitive"]["unclippedDepth"], json!(prim.unclipped_depth));
        for t in 0..8 {
            assert_eq!(states["targets"][t]["blend"], blend(m::blend_state(t)), "{} target {t}: blend", stringify!($module));
            assert_eq!(states["targets"][t]["writeMask"], json!(m::color_write_mask(t).bits()));
        }
        let ds = m::depth_stencil_state(wgpu::TextureFormat::Depth32Float);
        assert_eq!(states["depthStencil"]["depthWriteEnabled"], json!(ds.depth_write_enabled.unwrap()));
        assert_eq!(states["depthStencil"]["depthCompare"], json!(compare_fn(ds.depth_compare.unwrap())));
        assert_eq!(states["depthStencil"]["stencilReadMask"], json!(ds.stencil.read_mask));
        assert_eq!(states["depthStencil"]["stencilWriteMask"], json!(ds.stencil.write_mask));
        assert_eq!(states["depthStencil"]["stencilFront"]["compare"], json!(compare_fn(ds.stencil.front.compare)));
        assert_eq!(states["depthStencil"]["depthBias"], json!(ds.bias.constant));
        a
    }};
}

/// A cbuffer field's offset in the artifact.
fn offset(a: &Value, name: &str) -> usize {
    a["cbuffers"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("{name}"))["offset"]
        .as_u64()
        .unwrap() as usize
}

#[test]
fn basic_effect_artifact_agrees_with_its_generated_module() {
    let a = agree!(basic_effect);
    use basic_effect::Parameters as P;
    assert_eq!(a["cbuffers"][0]["size"], json!(size_of::<P>()));
    assert_eq!(offset(&a, "DiffuseColor"), core::mem::offset_of!(P, diffuse_color));
    assert_eq!(offset(&a, "FogColor"), core::mem::offset_of!(P, fog_color));
    assert_eq!(offset(&a, "FogVector"), core::mem::offset_of!(P, fog_vector));
    assert_eq!(offset(&a, "World"), core::mem::offset_of!(P, world));
    assert_eq!(offset(&a, "WorldInverseTranspose"), core::mem::offset_of!(P, world_inverse_transpose));
    assert_eq!(offset(&a, "WorldViewProj"), core::mem::offset_of!(P, world_view_proj));
    assert_eq!(offset(&a, "EyePosition"), core::mem::offset_of!(P, eye_position));
    assert_eq!(offset(&a, "LightDirection"), core::mem::offset_of!(P, light_direction));
}

#[test]
fn dual_texture_effect_artifact_agrees_with_its_generated_module() {
    let a = agree!(dual_texture_effect);
    use dual_texture_effect::Parameters as P;
    assert_eq!(a["cbuffers"][0]["size"], json!(size_of::<P>()));
    assert_eq!(offset(&a, "DiffuseColor"), core::mem::offset_of!(P, diffuse_color));
    assert_eq!(offset(&a, "FogColor"), core::mem::offset_of!(P, fog_color));
    assert_eq!(offset(&a, "FogVector"), core::mem::offset_of!(P, fog_vector));
    assert_eq!(offset(&a, "WorldViewProj"), core::mem::offset_of!(P, world_view_proj));
}

#[test]
fn every_other_example_effect_artifact_agrees_with_its_generated_module() {
    agree!(alpha_test_effect);
    agree!(debug_effect);
    agree!(environment_map_effect);
    agree!(normal_map_effect);
    agree!(skinned_effect);
    agree!(sprite_effect);
    agree!(basic_post_process);
    agree!(dual_post_process);
    agree!(tone_map);
}

/// The comparison can fail: an artifact with one binding moved disagrees.
#[test]
fn a_moved_binding_disagrees() {
    let a = artifact("basic_effect");
    let groups = basic_effect::bind_group_layout_entries(basic_effect::Permutation::ALL[0]);
    let id = a["passes"][0]["variants"][0]["pipelines"][0]["bindGroupLayouts"][0].as_u64().unwrap() as usize;
    let mut ours: Vec<Value> =
        a["bindGroupLayouts"][id]["entries"].as_array().unwrap().iter().map(artifact_entry).collect();
    ours[0]["binding"] = json!(ours[0]["binding"].as_u64().unwrap() + 1);
    let theirs: Vec<Value> = groups[0].iter().map(entry).collect();
    assert_ne!(ours, theirs);
}

/// The schema files in docs/ are what this version generates.
#[test]
fn the_docs_schema_files_are_current() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    let schema = std::fs::read_to_string(docs.join("web-artifact.schema.json")).expect("docs/web-artifact.schema.json");
    let dts = std::fs::read_to_string(docs.join("web-artifact.d.ts")).expect("docs/web-artifact.d.ts");
    assert!(
        schema == dxbc_wgsl_build::web::schema::json_schema(),
        "docs/web-artifact.schema.json is stale: run `dxbc-wgsl schema --out docs`"
    );
    assert!(
        dts == dxbc_wgsl_build::web::schema::typescript(),
        "docs/web-artifact.d.ts is stale: run `dxbc-wgsl schema --out docs`"
    );
    // Every artifact reads back as the schema's types.
    for (module, text) in example_engine::web::ARTIFACTS {
        dxbc_wgsl_build::web::from_json(text).unwrap_or_else(|e| panic!("{module}: {e}"));
    }
}
