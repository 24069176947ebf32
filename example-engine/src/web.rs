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
use crate::sheet::{
    self,
    common::{TileData, TileTexture},
};
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

/// What a draw reads its vertices from.
enum Geometry {
    /// `count` `uint32` indices at `indices` (`[offset, length]` in the data file) into the
    /// vertices at `vertices`.
    Indexed { vertices: Value, indices: Value, count: usize },
    /// `count` vertices the vertex shader makes from its vertex ID alone (no buffers).
    Generated { count: u32 },
}

/// One triangle-list draw of pass 0 of `effect`'s variant `permutation`, its pipeline's
/// primitive state (counter-clockwise front faces; back faces culled or both drawn) overriding the
/// effect's.
fn draw_json(effect: &str, permutation: usize, cull_back: bool, geometry: Geometry, resources: Value) -> Value {
    let mut draw = json!({
        "effect": effect,
        "pass": 0,
        "permutation": permutation,
        "primitive": {
            "topology": "triangle-list",
            "frontFace": "ccw",
            "cullMode": if cull_back { "back" } else { "none" },
        },
    });
    match geometry {
        Geometry::Indexed { vertices, indices, count } => {
            draw["vertexBuffer"] = vertices;
            draw["indexBuffer"] = indices;
            draw["indexFormat"] = json!("uint32");
            draw["indexCount"] = json!(count);
        }
        Geometry::Generated { count } => draw["vertexCount"] = json!(count),
    }
    draw["resources"] = resources;
    draw
}

/// The `cbuffer` value of a draw's `parameters` resource: `bytes` read at `artifact`'s offsets.
fn parameters_json(artifact: &Value, bytes: &[u8]) -> anyhow::Result<Value> {
    use anyhow::Context as _;
    let index = artifact["resources"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["name"] == "parameters"))
        .and_then(|r| r["cbuffer"].as_u64())
        .context("the artifact has no `parameters` constant buffer")?;
    Ok(json!({ "cbuffer": cbuffer_values(artifact, index as usize, bytes).map_err(anyhow::Error::msg)? }))
}

/// Writes `scene.json` / `scene.bin` as `<stem>.scene.json` and `<stem>.scene.bin`.
fn write_scene_files(dir: &Path, stem: &str, mut scene: Value, data: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let bin = format!("{stem}.bin");
    scene["data"] = json!(bin);
    let json_path = dir.join(format!("{stem}.json"));
    std::fs::write(dir.join(&bin), data).with_context(|| format!("cannot write {}/{bin}", dir.display()))?;
    std::fs::write(&json_path, serde_json::to_string_pretty(&scene)? + "\n")
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    Ok(())
}

/// A row of the contact sheet that the browser draws from its artifact: one draw per tile, side
/// by side, each in its own viewport (`<module>.scene.json`).
#[derive(Clone, Copy, Debug)]
pub struct FamilyScene {
    /// The sheet's family name (`sheet::debug::FAMILY`, ...).
    pub family: &'static str,
    /// The effect's module (one of [`ARTIFACTS`]).
    pub module: &'static str,
    /// The tiles' data, in the sheet's order (`sheet::debug::tiles_data`, ...).
    pub tiles: fn() -> Vec<TileData>,
    /// The same tiles drawn by wgpu (`sheet::debug::tiles`, ...).
    pub render: fn(&crate::Gpu) -> crate::sheet::RenderedTiles,
    /// Why two conformant implementations may draw some of these tiles' pixels differently
    /// beyond 2/255 away from triangle edges (`None`: they may not; the browser gate holds such a
    /// row to the example frame's tolerance).
    pub implementation_defined: Option<&'static str>,
}

const DERIVATIVES: &str = "the pixel shaders compute a tangent frame from screen-space derivatives \
    (deriv_rtx/deriv_rty), whose 2x2-quad arithmetic D3D leaves to the implementation (WGSL's dpdx/dpdy alike)";

impl FamilyScene {
    /// The scene's file name in the web-scene folder.
    pub fn file(&self) -> String {
        format!("{}.scene.json", self.module)
    }
}

/// The sheet families written as web scenes.
pub const FAMILY_SCENES: [FamilyScene; 7] = [
    FamilyScene {
        family: sheet::debug::FAMILY,
        module: "debug_effect",
        tiles: sheet::debug::tiles_data,
        render: sheet::debug::tiles,
        implementation_defined: Some(DERIVATIVES),
    },
    FamilyScene {
        family: sheet::normal_map::FAMILY,
        module: "normal_map_effect",
        tiles: sheet::normal_map::tiles_data,
        render: sheet::normal_map::tiles,
        implementation_defined: Some(DERIVATIVES),
    },
    FamilyScene {
        family: sheet::skinned::FAMILY,
        module: "skinned_effect",
        tiles: sheet::skinned::tiles_data,
        render: sheet::skinned::tiles,
        implementation_defined: Some(
            "the nearest-filtered checker is minified at the tube's grazing, unlit sides, where which texel a \
             pixel selects at a texel boundary depends on the implementation's sub-texel precision; neighbouring \
             pixels there differ by less than the edge rule's 16/255",
        ),
    },
    FamilyScene {
        family: sheet::alpha_test::FAMILY,
        module: "alpha_test_effect",
        tiles: sheet::alpha_test::tiles_data,
        render: sheet::alpha_test::tiles,
        implementation_defined: None,
    },
    FamilyScene {
        family: sheet::tone_map::FAMILY,
        module: "tone_map",
        tiles: sheet::tone_map::tiles_data,
        render: sheet::tone_map::tiles,
        implementation_defined: None,
    },
    FamilyScene {
        family: sheet::post_process::BASIC_FAMILY,
        module: "basic_post_process",
        tiles: sheet::post_process::basic_tiles_data,
        render: sheet::post_process::basic_tiles,
        implementation_defined: None,
    },
    FamilyScene {
        family: sheet::post_process::DUAL_FAMILY,
        module: "dual_post_process",
        tiles: sheet::post_process::dual_tiles_data,
        render: sheet::post_process::dual_tiles,
        implementation_defined: None,
    },
];

fn tile_texture(data: &mut Vec<u8>, name: &str, t: &TileTexture) -> Value {
    match t {
        TileTexture::Rgba8(t) => texture(data, name, t),
        TileTexture::Rgba16Float(t) => {
            let halves: Vec<u16> = t.rgba.iter().flatten().map(|&v| crate::texture::f32_to_f16(v)).collect();
            json!({
                "name": name, "width": t.width, "height": t.height, "format": "rgba16float",
                "data": push(data, bytemuck::cast_slice(&halves)),
            })
        }
    }
}

fn sampler_json(filter: wgpu::FilterMode, address: wgpu::AddressMode) -> Value {
    let filter = match filter {
        wgpu::FilterMode::Nearest => "nearest",
        wgpu::FilterMode::Linear => "linear",
    };
    let address = match address {
        wgpu::AddressMode::Repeat => "repeat",
        wgpu::AddressMode::MirrorRepeat => "mirror-repeat",
        _ => "clamp-to-edge",
    };
    json!({
        "name": format!("{filter} {address}"),
        "descriptor": {
            "addressModeU": address, "addressModeV": address, "addressModeW": address,
            "magFilter": filter, "minFilter": filter
        }
    })
}

/// Writes `family`'s scene into `dir` (`<module>.scene.json` and `.scene.bin`): a
/// `tiles × TILE_WIDTH` by `TILE_HEIGHT` frame cleared to the sheet's clear colour, tile `i` drawn
/// in the viewport (and scissor) `[i × TILE_WIDTH, 0, TILE_WIDTH, TILE_HEIGHT]`, as wgpu draws
/// the tiles (each into its own target). The artifact is not written (see [`write_scene`]).
///
/// # Errors
/// A file that cannot be written, or a constant buffer the artifact's layout does not fit.
pub fn write_family_scene(dir: &Path, family: &FamilyScene) -> anyhow::Result<()> {
    use sheet::common::{CLEAR_COLOR, TILE_HEIGHT, TILE_WIDTH};
    let a = artifact(family.module);
    let tiles = (family.tiles)();
    let mut data = Vec::new();
    let (mut images, mut textures): (Vec<&TileTexture>, Vec<Value>) = (Vec::new(), Vec::new());
    let (mut sampler_keys, mut samplers) = (Vec::new(), Vec::new());
    let mut draws = Vec::new();
    for (i, tile) in tiles.iter().enumerate() {
        let mut resources = serde_json::Map::new();
        resources.insert("parameters".into(), parameters_json(&a, &tile.parameters)?);
        for (name, image) in &tile.textures {
            let index = images.iter().position(|known| *known == image).unwrap_or_else(|| {
                images.push(image);
                textures.push(tile_texture(&mut data, name, image));
                images.len() - 1
            });
            resources.insert((*name).into(), json!({ "texture": index }));
        }
        if let Some(key) = tile.sampler {
            let index = sampler_keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                sampler_keys.push(key);
                samplers.push(sampler_json(key.0, key.1));
                sampler_keys.len() - 1
            });
            resources.insert("sampler".into(), json!({ "sampler": index }));
        }
        let geometry = if tile.indices.is_empty() {
            Geometry::Generated { count: tile.vertex_count }
        } else {
            Geometry::Indexed {
                vertices: push(&mut data, &tile.vertices),
                indices: push(&mut data, bytemuck::cast_slice(&tile.indices)),
                count: tile.indices.len(),
            }
        };
        let mut d = draw_json(family.module, tile.permutation, tile.cull_back, geometry, Value::Object(resources));
        if !tile.depth_test {
            d["depthStencil"] = json!({ "depthWriteEnabled": false, "depthCompare": "always" });
        }
        d["viewport"] = json!([i as u32 * TILE_WIDTH, 0, TILE_WIDTH, TILE_HEIGHT]);
        draws.push(d);
    }
    let [r, g, b] = CLEAR_COLOR;
    let scene = json!({
        "format": SCENE_FORMAT,
        "family": family.family,
        "width": tiles.len() as u32 * TILE_WIDTH,
        "height": TILE_HEIGHT,
        "colorFormat": "rgba8unorm",
        "depthFormat": "depth32float",
        "depthStencil": { "depthWriteEnabled": true, "depthCompare": "less" },
        "clear": [r, g, b, 1.0],
        "textures": textures,
        "samplers": samplers,
        "draws": draws,
    });
    write_scene_files(dir, &format!("{}.scene", family.module), scene, &data)
}

/// Writes the artifacts, `scene.json` and `scene.bin` into `dir` for the frame `renderer` draws,
/// and every [`FAMILY_SCENES`] scene.
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
    // The pipelines' states as `scene::Pipelines` sets them (they override the effects' own).
    let draw = |effect, permutation, vertices, indices, count, resources| {
        draw_json(effect, permutation, true, Geometry::Indexed { vertices, indices, count }, resources)
    };
    let ground = draw(
        "dual_texture_effect",
        GROUND_PERMUTATION.index().context("the ground's permutation exists")?,
        push(&mut data, bytemuck::cast_slice(&d.ground_vertices)),
        push(&mut data, bytemuck::cast_slice(&d.ground_indices)),
        d.ground_indices.len(),
        json!({
            "parameters": parameters_json(&dual, bytemuck::bytes_of(&renderer.ground_parameters()))?,
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
            "parameters": parameters_json(&basic, bytemuck::bytes_of(&renderer.torus_parameters()))?,
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
    write_scene_files(dir, "scene", scene, &data)?;
    for family in &FAMILY_SCENES {
        write_family_scene(dir, family)?;
    }
    Ok(())
}

/// `format` of `scene.json`.
pub const SCENE_FORMAT: &str = "dxbc-wgsl-example-scene/1";
