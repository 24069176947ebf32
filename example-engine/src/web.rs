//! The browser's copy of the demo scene: `example-engine --web-scene DIR` writes every effect's
//! web artifact (`<module>.effect.json`, from `dxbc_wgsl_build::Builder::web_artifacts` in
//! `build.rs`) and the scene the frame draws — meshes, textures, samplers, the constant-buffer
//! values and the camera — so a WebGPU page draws the same data from the artifacts alone
//! (`tools/browser/`, docs/web-artifact.md "Scenes").
//!
//! Constant buffers travel as values per HLSL variable, not as bytes: each is read out of the
//! Rust struct's bytes at the offsets the artifact gives, and the page packs them back from the
//! artifact's layout, so a wrong offset in the artifact shows in the browser's frame.

use std::path::Path;

use serde_json::{json, Value};

use crate::lighting::Fog;
use crate::scene::{Renderer, SceneData, GROUND_PERMUTATION, TORUS_PERMUTATION};
use crate::texture::TextureImage;

/// Every effect's web artifact: `(module, JSON)`.
pub const ARTIFACTS: [(&str, &str); 12] = [
    ("basic_effect", include_str!(concat!(env!("OUT_DIR"), "/basic_effect.effect.json"))),
    ("alpha_test_effect", include_str!(concat!(env!("OUT_DIR"), "/alpha_test_effect.effect.json"))),
    ("debug_effect", include_str!(concat!(env!("OUT_DIR"), "/debug_effect.effect.json"))),
    ("environment_map_effect", include_str!(concat!(env!("OUT_DIR"), "/environment_map_effect.effect.json"))),
    ("normal_map_effect", include_str!(concat!(env!("OUT_DIR"), "/normal_map_effect.effect.json"))),
    ("skinned_effect", include_str!(concat!(env!("OUT_DIR"), "/skinned_effect.effect.json"))),
    ("sprite_effect", include_str!(concat!(env!("OUT_DIR"), "/sprite_effect.effect.json"))),
    ("basic_post_process", include_str!(concat!(env!("OUT_DIR"), "/basic_post_process.effect.json"))),
    ("dual_post_process", include_str!(concat!(env!("OUT_DIR"), "/dual_post_process.effect.json"))),
    ("tone_map", include_str!(concat!(env!("OUT_DIR"), "/tone_map.effect.json"))),
    ("point_sprite_effect", include_str!(concat!(env!("OUT_DIR"), "/point_sprite_effect.effect.json"))),
    ("dual_texture_effect", include_str!(concat!(env!("OUT_DIR"), "/dual_texture_effect.effect.json"))),
];

/// The artifact of `module`, parsed.
///
/// # Panics
/// If the module is not one of [`ARTIFACTS`] (a bug of the caller) or its JSON does not parse
/// (a bug of the build).
pub fn artifact(module: &str) -> Value {
    let (_, text) = ARTIFACTS.iter().find(|(m, _)| *m == module).unwrap_or_else(|| panic!("no artifact {module}"));
    serde_json::from_str(text).expect("build.rs wrote the artifact")
}

/// The value of every variable of constant buffer `cbuffer` (an index into the artifact's
/// `cbuffers`) read from `bytes` at the artifact's offsets, by HLSL name: a flat list of numbers
/// in HLSL element order (array element by element; a matrix row by row, `m[r][c]`, whatever its
/// packing). A struct's members are named `Variable[i].Member` (`Variable.Member` when it is not
/// an array).
///
/// # Errors
/// A variable that reaches past `bytes`.
pub fn cbuffer_values(
    artifact: &Value,
    cbuffer: usize,
    bytes: &[u8],
) -> Result<serde_json::Map<String, Value>, String> {
    let mut out = serde_json::Map::new();
    let fields = artifact["cbuffers"][cbuffer]["fields"].as_array().cloned().unwrap_or_default();
    for f in &fields {
        read_field(f, 0, "", bytes, &mut out)?;
    }
    Ok(out)
}

fn read_field(
    f: &Value,
    base: u64,
    prefix: &str,
    bytes: &[u8],
    out: &mut serde_json::Map<String, Value>,
) -> Result<(), String> {
    let name = format!("{prefix}{}", f["name"].as_str().unwrap_or_default());
    let offset = base + f["offset"].as_u64().unwrap_or(0);
    let count = f["arrayLength"].as_u64();
    let stride = f["arrayStride"].as_u64().unwrap_or(0);
    if let Some(members) = f["members"].as_array() {
        for e in 0..count.unwrap_or(1) {
            let element = match count {
                Some(_) => format!("{name}[{e}]."),
                None => format!("{name}."),
            };
            for m in members {
                read_field(m, offset + e * stride, &element, bytes, out)?;
            }
        }
        return Ok(());
    }
    let rows = f["rows"].as_u64().unwrap_or(1);
    let columns = f["columns"].as_u64().unwrap_or(1);
    let row_major = f["packing"].as_str() == Some("row_major");
    let matrix = f["packing"].is_string();
    let scalar = f["scalar"].as_str().unwrap_or("f32");
    let mut values = Vec::new();
    for e in 0..count.unwrap_or(1) {
        for r in 0..rows {
            for c in 0..columns {
                let at = offset
                    + e * stride
                    + match (matrix, row_major) {
                        (false, _) => c * 4,
                        (true, true) => r * 16 + c * 4,
                        (true, false) => c * 16 + r * 4,
                    };
                let word = bytes
                    .get(at as usize..at as usize + 4)
                    .ok_or_else(|| format!("{name} reaches byte {at}, past the buffer's {}", bytes.len()))?;
                let word = [word[0], word[1], word[2], word[3]];
                values.push(match scalar {
                    "f32" => json!(f32::from_le_bytes(word)),
                    "i32" => json!(i32::from_le_bytes(word)),
                    _ => json!(u32::from_le_bytes(word)),
                });
            }
        }
    }
    out.insert(name, Value::Array(values));
    Ok(())
}

/// Appends `bytes` to the scene's data file (4-byte aligned) and returns `[offset, length]`.
fn push(data: &mut Vec<u8>, bytes: &[u8]) -> Value {
    while !data.len().is_multiple_of(4) {
        data.push(0);
    }
    let at = data.len();
    data.extend_from_slice(bytes);
    json!([at, bytes.len()])
}

fn texture(data: &mut Vec<u8>, name: &str, t: &TextureImage) -> Value {
    json!({ "name": name, "width": t.width, "height": t.height, "format": "rgba8unorm", "data": push(data, &t.rgba) })
}

/// Writes the artifacts, `scene.json` and `scene.bin` into `dir` for the frame `renderer` draws.
///
/// # Errors
/// A file that cannot be written, or a constant buffer the artifact's layout does not fit.
pub fn write_scene(dir: &Path, renderer: &Renderer) -> anyhow::Result<()> {
    use anyhow::Context as _;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (module, text) in ARTIFACTS {
        let path = dir.join(format!("{module}.effect.json"));
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let d = SceneData::new();
    let mut data = Vec::new();
    let textures = vec![
        texture(&mut data, "torus checker", &d.torus_texture),
        texture(&mut data, "ground checker", &d.ground_texture),
        texture(&mut data, "ground light map", &d.light_map),
    ];
    let basic = artifact("basic_effect");
    let dual = artifact("dual_texture_effect");
    let cbuffer = |a: &Value, bytes: &[u8]| -> anyhow::Result<Value> {
        let index = a["resources"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["name"] == "parameters"))
            .and_then(|r| r["cbuffer"].as_u64())
            .context("the artifact has no `parameters` constant buffer")?;
        Ok(json!({ "cbuffer": cbuffer_values(a, index as usize, bytes).map_err(anyhow::Error::msg)? }))
    };
    // The pipelines' states as `scene::Pipelines` sets them (they override the effects' own).
    let primitive = json!({ "topology": "triangle-list", "frontFace": "ccw", "cullMode": "back" });
    let draw = |effect: &str, permutation: usize, vertices: Value, indices: Value, count: usize, resources: Value| {
        json!({
            "effect": effect,
            "pass": 0,
            "permutation": permutation,
            "primitive": primitive,
            "vertexBuffer": vertices,
            "indexBuffer": indices,
            "indexFormat": "uint32",
            "indexCount": count,
            "resources": resources,
        })
    };
    let ground = draw(
        "dual_texture_effect",
        GROUND_PERMUTATION.index().context("the ground's permutation exists")?,
        push(&mut data, bytemuck::cast_slice(&d.ground_vertices)),
        push(&mut data, bytemuck::cast_slice(&d.ground_indices)),
        d.ground_indices.len(),
        json!({
            "parameters": cbuffer(&dual, bytemuck::bytes_of(&renderer.ground_parameters()))?,
            "texture": { "texture": 1 },
            "texture2": { "texture": 2 },
            "sampler": { "sampler": 0 },
            "sampler2": { "sampler": 0 },
        }),
    );
    let torus = draw(
        "basic_effect",
        TORUS_PERMUTATION.index().context("the torus's permutation exists")?,
        push(&mut data, bytemuck::cast_slice(&d.torus_vertices)),
        push(&mut data, bytemuck::cast_slice(&d.torus_indices)),
        d.torus_indices.len(),
        json!({
            "parameters": cbuffer(&basic, bytemuck::bytes_of(&renderer.torus_parameters()))?,
            "texture": { "texture": 0 },
            "sampler": { "sampler": 0 },
        }),
    );
    let s = &renderer.scene;
    let Fog { color, .. } = s.fog;
    let scene = json!({
        "format": SCENE_FORMAT,
        "width": renderer.target.width,
        "height": renderer.target.height,
        "colorFormat": "rgba8unorm",
        "depthFormat": "depth32float",
        "depthStencil": { "depthWriteEnabled": true, "depthCompare": "less" },
        "clear": [color[0], color[1], color[2], 1.0],
        "camera": { "eye": s.eye, "lookAt": s.look_at, "fovY": s.fov_y, "near": 0.1, "far": 50.0 },
        "data": "scene.bin",
        "textures": textures,
        "samplers": [{
            "name": "linear repeat",
            "descriptor": {
                "addressModeU": "repeat", "addressModeV": "repeat", "addressModeW": "repeat",
                "magFilter": "linear", "minFilter": "linear"
            }
        }],
        "draws": [ground, torus],
    });
    let json_path = dir.join("scene.json");
    std::fs::write(dir.join("scene.bin"), &data)
        .with_context(|| format!("cannot write {}/scene.bin", dir.display()))?;
    std::fs::write(&json_path, serde_json::to_string_pretty(&scene)? + "\n")
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    Ok(())
}

/// `format` of `scene.json`.
pub const SCENE_FORMAT: &str = "dxbc-wgsl-example-scene/1";
