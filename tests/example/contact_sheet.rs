//! The contact sheet (`example-engine --all-effects`): every DirectXTK effect family is drawn, each
//! tile shows something and carries its label, permutations that change the shading change the
//! tile, and three effects — BasicEffect, DualTextureEffect and SkinnedEffect (lit, skinned) — are
//! compared pixel by pixel with independent CPU computations of their HLSL equations
//! (`dxbc_wgsl_tests::{basic_effect_model, dual_texture_model, skinned_effect_model}`), fed with
//! the tiles' scenes in application terms (camera, world matrix, lights, material, fog distances,
//! bones), never with the constant-buffer bytes. So are the point sprites (the sheet's pass with a
//! geometry shader): every vertex of the torus a square of `point_sprite::SPRITE_SIZE` pixels
//! around its projection, in BasicEffect's colour, nearest in depth on top
//! (`dxbc_wgsl_tests::point_sprite_model`).
//!
//! Which triangle a pixel shows is found on the CPU (`mesh_raster`: nearest covering triangle);
//! pixels within 0.3 pixels of that triangle's edges, whose nearest texel is ambiguous (within 5% of a
//! texel boundary between different colours), or that show a back face are left out.
//!
//! Which sprite a pixel shows is found on the CPU too: pixels within 0.3 pixels of the edge of a
//! sprite that could show there, or where two sprites of different colours lie too close in depth
//! to order, are left out.
//!
//! Tolerance, fixed before the comparisons were written: 2/255 per channel on an Rgba8Unorm target.
//! Each CPU check is shown to be able to fail: a mirrored key light (BasicEffect), constants one
//! register late (DualTextureEffect), two swapped bones (SkinnedEffect) and sprites of twice the
//! size (point sprites) exceed it.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use dxbc_wgsl_tests::basic_effect_model::{to_unorm8, BasicParams, PixelLightingVaryings, VertexLightingVaryings};
use dxbc_wgsl_tests::dual_texture_model::{DualParams, DualVaryings};
use dxbc_wgsl_tests::gpu::{check_pixels, format_checks, gpu_or_skip, PixelCheck};
use dxbc_wgsl_tests::mesh_raster::ScreenMesh;
use dxbc_wgsl_tests::point_sprite_model::{self, Shown, Sprite};
use dxbc_wgsl_tests::raster::interpolate;
use dxbc_wgsl_tests::skinned_effect_model::{skin, Bone, IDENTITY_BONE};
use example_engine::effects::{basic_effect, dual_texture_effect, point_sprite_effect, skinned_effect};
use example_engine::math::Mat4;
use example_engine::sheet::common::{LitScene, CLEAR_COLOR};
use example_engine::sheet::{self, basic, dual_texture, point_sprite, skinned, Sheet, TILE_HEIGHT, TILE_WIDTH};
use example_engine::texture::TextureImage;
use example_engine::Image;

/// Largest accepted difference per channel, in 1/255 steps.
const TOLERANCE: u8 = 2;
/// Pixels sampled: every STEP-th in x and y.
const STEP: u32 = 2;
/// Pixels whose centre lies closer than this (in pixels) to an edge of the triangle they show are
/// left out: the sheet's meshes have triangles a few pixels wide, and what matters is only that
/// rounding (sub-pixel snapping, float error) cannot move the centre across a silhouette edge.
const EDGE_MARGIN: f64 = 0.3;
/// Sprites of different colours whose depths (z / w) differ by less than this are not ordered: the
/// pixels where both could show are left out (the GPU's f32 depth is exact to about 1e-7 there).
const DEPTH_MARGIN: f64 = 1e-5;

static SHEET: OnceLock<Option<Sheet>> = OnceLock::new();

/// The sheet, rendered once for all tests of this file (None when GPU tests are skipped).
fn rendered_sheet() -> Option<&'static Sheet> {
    SHEET
        .get_or_init(|| {
            let gpu = gpu_or_skip("contact sheet")?;
            let sheet = sheet::render_sheet(&gpu);
            let path = std::env::temp_dir().join("dxbc-wgsl-contact-sheet.png");
            match sheet.image.save_png(&path) {
                Ok(()) => eprintln!("contact sheet written to {}", path.display()),
                Err(e) => eprintln!("could not write {}: {e}", path.display()),
            }
            Some(sheet)
        })
        .as_ref()
}

fn tile<'a>(sheet: &'a Sheet, family: &str, label: &str) -> &'a Image {
    let tile = sheet.tile(family, label).unwrap_or_else(|| panic!("no tile `{label}` in {family}"));
    tile.result.as_ref().unwrap_or_else(|e| panic!("{family} / {label} failed: {e}"))
}

/// Pixels whose colour differs from the other image's by more than the tolerance.
fn differing_pixels(a: &Image, b: &Image) -> usize {
    a.rgba
        .chunks_exact(4)
        .zip(b.rgba.chunks_exact(4))
        .filter(|(p, q)| (0..4).any(|c| p[c].abs_diff(q[c]) > TOLERANCE))
        .count()
}

#[test]
fn every_family_is_drawn_with_labelled_tiles() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    let expected: BTreeMap<&str, (usize, usize)> = [
        ("AlphaTestEffect", (8, 8)),
        ("BasicEffect", (56, 8)),
        ("DebugEffect", (16, 8)),
        ("DualTextureEffect", (4, 4)),
        ("EnvironmentMapEffect", (56, 8)),
        ("NormalMapEffect", (16, 8)),
        ("PointSpriteEffect (own geometry shader)", (2, 2)),
        ("PostProcess (BasicPostProcess)", (8, 8)),
        ("PostProcess (DualPostProcess)", (2, 2)),
        ("SkinnedEffect", (36, 8)),
        ("SpriteEffect", (1, 1)),
        ("ToneMap", (12, 8)),
    ]
    .into_iter()
    .collect();
    let rows: BTreeMap<&str, (usize, usize)> =
        sheet.rows.iter().map(|r| (r.family, (r.permutations, r.tiles))).collect();
    assert_eq!(rows, expected, "families: (permutations declared, tiles drawn)");
    for row in &sheet.rows {
        assert_eq!(row.tiles, row.permutations.min(8), "{}: all permutations up to 8", row.family);
        assert_eq!(row.failed, 0, "{}: {} tiles failed", row.family, row.failed);
    }

    let clear = CLEAR_COLOR.map(|c| (c * 255.0).round() as u8);
    let pixels = (TILE_WIDTH * TILE_HEIGHT) as usize;
    let mut report = String::new();
    for t in &sheet.tiles {
        let image = t.result.as_ref().unwrap_or_else(|e| panic!("{} / {}: {e}", t.family, t.label));
        assert_eq!((image.width, image.height), (TILE_WIDTH, TILE_HEIGHT));
        // Drawn: a good part of the tile is not the clear colour (and, for full-screen tiles, the tile
        // is not one flat colour; the alpha-test tiles are flat-shaded rings on the clear colour).
        let drawn = image.rgba.chunks_exact(4).filter(|p| (0..3).any(|c| p[c].abs_diff(clear[c]) > TOLERANCE)).count();
        let colours: std::collections::BTreeSet<&[u8]> = image.rgba.chunks_exact(4).collect();
        report.push_str(&format!(
            "  {:32} {:42} {:5.1}% drawn, {:5} colours\n",
            t.family,
            t.label,
            100.0 * drawn as f64 / pixels as f64,
            colours.len()
        ));
        assert!(drawn * 100 >= pixels * 3, "{} / {}: only {drawn} of {pixels} pixels drawn", t.family, t.label);
        assert!(colours.len() >= 2, "{} / {}: only {} colours", t.family, t.label, colours.len());
        // The sheet holds the tile at (x, y) and its label (label-coloured pixels) under it.
        for y in 0..TILE_HEIGHT {
            let row = |img: &Image, x0: u32, yy: u32| {
                let i = ((yy * img.width + x0) * 4) as usize;
                img.rgba[i..i + (TILE_WIDTH * 4) as usize].to_vec()
            };
            assert_eq!(row(&sheet.image, t.x, t.y + y), row(image, 0, y), "{} / {}: sheet row {y}", t.family, t.label);
        }
        let label_pixels = (t.y + TILE_HEIGHT..t.y + TILE_HEIGHT + sheet::LABEL_HEIGHT)
            .flat_map(|y| (t.x..t.x + TILE_WIDTH).map(move |x| (x, y)))
            .filter(|&(x, y)| sheet.image.pixel(x, y) == sheet::LABEL_COLOR)
            .count();
        assert!(label_pixels >= 10 * t.label.len().min(20), "{} / {}: no label drawn", t.family, t.label);
    }
    println!("{} tiles:\n{report}", sheet.tiles.len());
}

#[test]
fn permutations_that_change_the_shading_change_the_tile() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    // (family, tile, tile, what differs)
    let differ: &[(&str, &str, &str)] = &[
        ("AlphaTestEffect", "alpha > 100", "alpha > 100 + fog"),
        ("AlphaTestEffect", "alpha > 100", "alpha > 100 + vertex colour"),
        ("AlphaTestEffect", "alpha > 100", "alpha = 128"),
        ("AlphaTestEffect", "alpha = 128", "alpha = 128 + vertex colour + fog"),
        ("BasicEffect", "no lighting", "no lighting + fog"),
        ("BasicEffect", "no lighting", "vertex colour"),
        ("BasicEffect", "no lighting + fog", "texture + fog"),
        ("BasicEffect", "no lighting", "vertex lighting"),
        ("BasicEffect", "vertex lighting", "one light + vertex colour"),
        ("BasicEffect", "vertex lighting", "pixel lighting"),
        ("BasicEffect", "pixel lighting", "pixel lighting + texture + fog"),
        ("DebugEffect", "hemispherical ambient", "normals"),
        ("DebugEffect", "hemispherical ambient", "tangents"),
        ("DebugEffect", "normals", "tangents"),
        ("DebugEffect", "normals", "bitangents"),
        ("DebugEffect", "tangents", "bitangents"),
        ("DebugEffect", "hemispherical ambient", "hemispherical ambient + vertex colour"),
        ("DualTextureEffect", "no fog", "fog"),
        ("DualTextureEffect", "no fog", "vertex colour"),
        ("DualTextureEffect", "fog", "vertex colour + fog"),
        ("DualTextureEffect", "vertex colour", "vertex colour + fog"),
        ("EnvironmentMapEffect", "cube map, vertex lighting", "cube map, vertex lighting + fog"),
        ("EnvironmentMapEffect", "cube map, vertex lighting", "cube map, fresnel"),
        ("EnvironmentMapEffect", "cube map, vertex lighting", "cube map, env-map specular"),
        ("EnvironmentMapEffect", "cube map, vertex lighting", "cube map, one light"),
        ("EnvironmentMapEffect", "cube map, vertex lighting", "cube map, pixel lighting"),
        ("EnvironmentMapEffect", "cube map, pixel lighting", "sphere map, pixel lighting + fresnel"),
        ("EnvironmentMapEffect", "cube map, pixel lighting", "dual parabola, pixel lighting + fog"),
        ("NormalMapEffect", "specular map", "specular map + fog"),
        ("NormalMapEffect", "specular map", "no specular map"),
        ("NormalMapEffect", "specular map", "vertex colour + specular map"),
        ("NormalMapEffect", "no specular map", "no specular map + fog"),
        ("PointSpriteEffect (own geometry shader)", "diffuse colour", "vertex colour"),
        ("SkinnedEffect", "vertex lighting, 1 bone", "vertex lighting, 2 bones"),
        ("SkinnedEffect", "vertex lighting, 2 bones", "vertex lighting, 4 bones"),
        ("SkinnedEffect", "vertex lighting, 4 bones", "vertex lighting, 4 bones + fog"),
        ("SkinnedEffect", "vertex lighting, 4 bones", "one light, 4 bones"),
        ("SkinnedEffect", "vertex lighting, 1 bone", "pixel lighting, 1 bone"),
        ("SkinnedEffect", "pixel lighting, 1 bone", "pixel lighting, 2 bones"),
    ];
    // Families whose tiles must all differ pairwise.
    let all_differ = ["PostProcess (BasicPostProcess)", "PostProcess (DualPostProcess)", "ToneMap"];
    // Biased normals stored as n * 0.5 + 0.5 must give the unbiased picture; the RGB debug shaders
    // take only the vertex colour's alpha (1).
    let same: &[(&str, &str, &str)] = &[
        ("DebugEffect", "hemispherical ambient", "hemispherical ambient, biased normals"),
        ("DebugEffect", "normals", "normals, biased normals"),
        ("DebugEffect", "bitangents", "bitangents + vertex colour, biased normals"),
    ];
    let min_pixels = (TILE_WIDTH * TILE_HEIGHT / 200) as usize;
    let mut pairs: Vec<(&str, String, String)> =
        differ.iter().map(|&(f, a, b)| (f, a.to_owned(), b.to_owned())).collect();
    for family in all_differ {
        let tiles = sheet.family(family);
        for (i, a) in tiles.iter().enumerate() {
            for b in &tiles[i + 1..] {
                pairs.push((family, a.label.clone(), b.label.clone()));
            }
        }
    }
    let mut report = String::new();
    for (family, a, b) in &pairs {
        let n = differing_pixels(tile(sheet, family, a), tile(sheet, family, b));
        report.push_str(&format!("  {family}: `{a}` vs `{b}`: {n} pixels differ\n"));
        assert!(n >= min_pixels, "{family}: `{a}` and `{b}` differ in only {n} pixels (< {min_pixels})\n{report}");
    }
    for &(family, a, b) in same {
        let (ta, tb) = (tile(sheet, family, a), tile(sheet, family, b));
        let worst = ta.rgba.iter().zip(&tb.rgba).map(|(p, q)| p.abs_diff(*q)).max().unwrap_or(0);
        report.push_str(&format!("  {family}: `{a}` vs `{b}`: largest difference {worst}/255 (should match)\n"));
        assert!(worst <= TOLERANCE, "{family}: `{a}` and `{b}` should look the same, differ by {worst}/255");
    }
    println!("{} pairs that must differ, {} that must match:\n{report}", pairs.len(), same.len());
}

// ---------------------------------------------------------------------------------------------
// CPU checks.

/// The texel nearest filtering picks at `uv` (repeat addressing) as floats, or `None` when `uv` is
/// within 5% of a texel boundary across which the colour changes.
fn nearest_texel(texture: &TextureImage, uv: [f32; 2]) -> Option<[f32; 4]> {
    let size = [texture.width, texture.height];
    let mut index = [0u32; 2];
    let mut near_boundary = [None; 2];
    for i in 0..2 {
        let t = f64::from(uv[i]) * f64::from(size[i]);
        let frac = t - t.floor();
        index[i] = (t.floor() as i64).rem_euclid(i64::from(size[i])) as u32;
        let wrap = |k: i64| k.rem_euclid(i64::from(size[i])) as u32;
        if frac < 0.05 {
            near_boundary[i] = Some(wrap(t.floor() as i64 - 1));
        } else if frac > 0.95 {
            near_boundary[i] = Some(wrap(t.floor() as i64 + 1));
        }
    }
    let texel = texture.texel(index[0], index[1]);
    let neighbours = [
        near_boundary[0].map(|x| (x, index[1])),
        near_boundary[1].map(|y| (index[0], y)),
        near_boundary[0].zip(near_boundary[1]),
    ];
    if neighbours.iter().flatten().any(|&(x, y)| texture.texel(x, y) != texel) {
        return None;
    }
    Some(texel.map(|b| f32::from(b) / 255.0))
}

/// Every STEP-th pixel showing a front face of the mesh (clip-space corners `clip`), with the
/// triangle and its weights there; `expect` computes the pixel (None: leave it out).
fn expected_pixels(
    clip: &[[f32; 4]],
    indices: &[u32],
    mut expect: impl FnMut([usize; 3], [f64; 3]) -> Option<[f32; 4]>,
) -> Vec<(u32, u32, [u8; 4])> {
    let mesh = ScreenMesh::new(clip, indices, TILE_WIDTH, TILE_HEIGHT);
    let mut out = Vec::new();
    for y in (0..TILE_HEIGHT).step_by(STEP as usize) {
        for x in (0..TILE_WIDTH).step_by(STEP as usize) {
            let Some(hit) = mesh.visible(x, y, EDGE_MARGIN) else {
                continue;
            };
            if !hit.counter_clockwise {
                continue;
            }
            if let Some(color) = expect(hit.triangle, hit.weights) {
                out.push((x, y, to_unorm8(color)));
            }
        }
    }
    out
}

/// Compares and prints; returns (pixels, largest difference).
fn compare(what: &str, image: &Image, expected: &[(u32, u32, [u8; 4])]) -> (usize, u8) {
    let checks = check_pixels(image, expected);
    let worst = checks.iter().map(PixelCheck::max_diff).max().unwrap_or(0);
    println!("{what}: {} pixels, largest difference {worst}/255", checks.len());
    assert!(checks.len() >= 8, "{what}: only {} pixels could be checked", checks.len());
    assert!(
        worst <= TOLERANCE,
        "{what}: rendered pixels differ from the CPU model by up to {worst}/255 (tolerance {TOLERANCE}):\n{}",
        format_checks(&checks.iter().filter(|c| c.max_diff() > TOLERANCE).copied().take(40).collect::<Vec<_>>())
    );
    (checks.len(), worst)
}

/// The largest difference of a deliberately wrong rendering from the expected pixels: must exceed
/// the tolerance.
fn assert_detected(what: &str, image: &Image, expected: &[(u32, u32, [u8; 4])]) {
    let checks = check_pixels(image, expected);
    let worst = checks.iter().map(PixelCheck::max_diff).max().unwrap_or(0);
    let off = checks.iter().filter(|c| c.max_diff() > TOLERANCE).count();
    println!("{what}: {off} of {} pixels off, by up to {worst}/255", checks.len());
    assert!(worst > TOLERANCE, "{what}: still matches the CPU model (largest difference {worst}/255)");
}

/// The 3x3 inverse transpose (normal matrix) of a row-vector world matrix, by cofactors.
fn inverse_transpose(m: &[[f32; 4]; 4]) -> [[f32; 3]; 3] {
    let a = |r: usize, c: usize| f64::from(m[r][c]);
    let cof = |r: usize, c: usize| {
        let (r1, r2, c1, c2) = ((r + 1) % 3, (r + 2) % 3, (c + 1) % 3, (c + 2) % 3);
        a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)
    };
    let det: f64 = (0..3).map(|c| a(0, c) * cof(0, c)).sum();
    std::array::from_fn(|r| std::array::from_fn(|c| (cof(r, c) / det) as f32))
}

/// `FogVector` from its definition: the fog factor `(d - start) / (end - start)` of view-space
/// distance `d = -z_view`, as a dot product with the object-space position (w = 1).
fn fog_vector(scene: &LitScene, enabled: bool) -> [f32; 4] {
    if !enabled {
        return [0.0; 4];
    }
    let wv = scene.world.mul(&scene.camera.view()).0;
    let range = scene.fog.end - scene.fog.start;
    [-wv[0][2] / range, -wv[1][2] / range, -wv[2][2] / range, (-wv[3][2] - scene.fog.start) / range]
}

/// BasicEffect's (and SkinnedEffect's) logical parameters for a tile's scene.
fn basic_params(scene: &LitScene, fog: bool) -> BasicParams {
    let m = &scene.material;
    BasicParams {
        diffuse_color: m.diffuse,
        emissive_color: m.emissive,
        specular_color: m.specular,
        specular_power: m.specular_power,
        light_direction: scene.lights.map(|l| l.direction),
        light_diffuse_color: scene.lights.map(|l| l.diffuse),
        light_specular_color: scene.lights.map(|l| l.specular),
        eye_position: scene.camera.eye,
        fog_color: scene.fog.color,
        fog_vector: fog_vector(scene, fog),
        world: scene.world.0,
        world_inverse_transpose: inverse_transpose(&scene.world.0),
        world_view_proj: scene.world.mul(&scene.camera.view()).mul(&scene.camera.projection()).0,
    }
}

fn vertex_lighting_at(v: [VertexLightingVaryings; 3], w: [f64; 3]) -> VertexLightingVaryings {
    VertexLightingVaryings {
        position_ps: interpolate(w, v.map(|o| o.position_ps)),
        diffuse: interpolate(w, v.map(|o| o.diffuse)),
        specular: interpolate(w, v.map(|o| o.specular)),
    }
}

fn pixel_lighting_at(v: [PixelLightingVaryings; 3], w: [f64; 3]) -> PixelLightingVaryings {
    PixelLightingVaryings {
        position_ps: interpolate(w, v.map(|o| o.position_ps)),
        position_ws: interpolate(w, v.map(|o| o.position_ws)),
        normal_ws: interpolate(w, v.map(|o| o.normal_ws)),
        diffuse: interpolate(w, v.map(|o| o.diffuse)),
        tex_coord: interpolate(w, v.map(|o| o.tex_coord)),
    }
}

/// What the CPU model says a BasicEffect tile shows.
fn basic_expected(scene: &LitScene, permutation: basic_effect::Permutation) -> Vec<(u32, u32, [u8; 4])> {
    use basic_effect::Lighting;
    let p = basic_params(scene, permutation.fog);
    let mesh = basic::mesh();
    let texture = basic::texture();
    let position = |v: &example_engine::sheet::common::LitVertex| [v.position[0], v.position[1], v.position[2], 1.0];
    let color =
        |v: &example_engine::sheet::common::LitVertex| if permutation.vertex_color { v.color } else { [1.0; 4] };
    let texel = |uv: [f32; 2]| if permutation.texture { nearest_texel(&texture, uv) } else { Some([1.0; 4]) };
    let fogless = |mut v: VertexLightingVaryings| {
        if !permutation.fog {
            v.specular[3] = 0.0;
        }
        v
    };
    match permutation.lighting {
        Lighting::Pixel => {
            let vout: Vec<PixelLightingVaryings> =
                mesh.vertices.iter().map(|v| p.vs_pixel_lighting_tx(position(v), v.normal, v.uv)).collect();
            let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
            expected_pixels(&clip, &mesh.indices, |t, w| {
                let pin = pixel_lighting_at(t.map(|i| vout[i]), w);
                Some(p.ps_pixel_lighting_tx(texel(pin.tex_coord)?, &pin))
            })
        }
        Lighting::None => {
            let vout: Vec<VertexLightingVaryings> =
                mesh.vertices.iter().map(|v| fogless(p.vs_basic(position(v), color(v)))).collect();
            let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
            expected_pixels(&clip, &mesh.indices, |t, w| {
                let pin = vertex_lighting_at(t.map(|i| vout[i]), w);
                let uv = interpolate(w, t.map(|i| mesh.vertices[i].uv));
                Some(p.ps_basic(texel(uv)?, &pin))
            })
        }
        lighting => {
            let lights = if lighting == Lighting::OneLight { 1 } else { 3 };
            let vout: Vec<VertexLightingVaryings> = mesh
                .vertices
                .iter()
                .map(|v| fogless(p.vs_vertex_lighting(position(v), v.normal, color(v), lights)))
                .collect();
            let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
            expected_pixels(&clip, &mesh.indices, |t, w| {
                let pin = vertex_lighting_at(t.map(|i| vout[i]), w);
                let uv = interpolate(w, t.map(|i| mesh.vertices[i].uv));
                Some(p.ps_vertex_lighting_tx(texel(uv)?, &pin))
            })
        }
    }
}

#[test]
fn basic_effect_tiles_match_cpu_model() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    let scene = basic::scene();
    let (mut pixels, mut worst) = (0, 0);
    for (label, permutation) in basic::TILES {
        let expected = basic_expected(&scene, permutation);
        let (n, w) = compare(&format!("BasicEffect / {label}"), tile(sheet, basic::FAMILY, label), &expected);
        pixels += n;
        worst = worst.max(w);
    }
    println!("BasicEffect: {pixels} pixels in {} tiles, largest difference {worst}/255", basic::TILES.len());

    // Can fail: the key light mirrored (x and z negated) changes the rendering beyond the tolerance.
    let gpu = gpu_or_skip("basic_effect_tiles_match_cpu_model").expect("the sheet rendered, so a GPU exists");
    let (label, permutation) = basic::TILES[7];
    let mut wrong = scene;
    let d = wrong.lights[0].direction;
    wrong.lights[0].direction = [-d[0], d[1], -d[2]];
    let image = basic::render(&gpu, &wrong, permutation).unwrap_or_else(|e| panic!("{e}"));
    assert_detected(
        &format!("BasicEffect / {label}, key light mirrored"),
        &image,
        &basic_expected(&scene, permutation),
    );
}

/// What the CPU model says a DualTextureEffect tile shows.
fn dual_expected(scene: &LitScene, permutation: dual_texture_effect::Permutation) -> Vec<(u32, u32, [u8; 4])> {
    let p = DualParams {
        diffuse_color: scene.material.diffuse,
        fog_color: scene.fog.color,
        fog_vector: fog_vector(scene, permutation.fog),
        world_view_proj: scene.world.mul(&scene.camera.view()).mul(&scene.camera.projection()).0,
    };
    let mesh = dual_texture::mesh();
    let (texture, light_map) = (dual_texture::texture(), dual_texture::light_map());
    let vout: Vec<DualVaryings> = mesh
        .vertices
        .iter()
        .map(|v| {
            let color = if permutation.vertex_color { v.color } else { [1.0; 4] };
            let uv2 = v.uv.map(|c| c / dual_texture::CHECKER_REPEAT);
            p.vs([v.position[0], v.position[1], v.position[2], 1.0], v.uv, uv2, color)
        })
        .collect();
    let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
    expected_pixels(&clip, &mesh.indices, |t, w| {
        let v = t.map(|i| vout[i]);
        let pin = DualVaryings {
            position_ps: interpolate(w, v.map(|o| o.position_ps)),
            diffuse: interpolate(w, v.map(|o| o.diffuse)),
            fog_factor: interpolate(w, v.map(|o| [o.fog_factor]))[0],
            tex_coord: interpolate(w, v.map(|o| o.tex_coord)),
            tex_coord2: interpolate(w, v.map(|o| o.tex_coord2)),
        };
        let texel = nearest_texel(&texture, pin.tex_coord)?;
        let overlay = nearest_texel(&light_map, pin.tex_coord2)?;
        Some(p.ps(texel, overlay, &pin, permutation.fog))
    })
}

#[test]
fn dual_texture_tiles_match_cpu_model() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    let scene = dual_texture::scene();
    let (mut pixels, mut worst) = (0, 0);
    for (label, permutation) in dual_texture::TILES {
        let expected = dual_expected(&scene, permutation);
        let (n, w) =
            compare(&format!("DualTextureEffect / {label}"), tile(sheet, dual_texture::FAMILY, label), &expected);
        pixels += n;
        worst = worst.max(w);
    }
    println!(
        "DualTextureEffect: {pixels} pixels in {} tiles, largest difference {worst}/255",
        dual_texture::TILES.len()
    );

    // Can fail: the constants uploaded one register (16 bytes) late.
    let gpu = gpu_or_skip("dual_texture_tiles_match_cpu_model").expect("the sheet rendered, so a GPU exists");
    let (label, permutation) = dual_texture::TILES[3];
    let bytes = bytemuck::bytes_of(&dual_texture::parameters(&scene, permutation)).to_vec();
    let mut shifted = vec![0u8; 16];
    shifted.extend_from_slice(&bytes[..bytes.len() - 16]);
    let parameters: dual_texture_effect::Parameters = bytemuck::pod_read_unaligned(&shifted);
    let image = dual_texture::render_with(&gpu, permutation, &parameters).unwrap_or_else(|e| panic!("{e}"));
    assert_detected(
        &format!("DualTextureEffect / {label}, constants one register late"),
        &image,
        &dual_expected(&scene, permutation),
    );
}

/// The skinned tube's bones as SkinnedEffect's 72 `float4x3`s (identity where unused), from the
/// chain's transforms in application terms.
fn logical_bones(transforms: &[Mat4; 4]) -> Vec<Bone> {
    let mut bones = vec![IDENTITY_BONE; 72];
    for (slot, m) in skinned::BONE_SLOTS.iter().zip(transforms) {
        bones[usize::from(*slot)] = std::array::from_fn(|r| [m.0[r][0], m.0[r][1], m.0[r][2]]);
    }
    bones
}

/// What the CPU model says a SkinnedEffect tile shows.
fn skinned_expected(scene: &LitScene, permutation: skinned_effect::Permutation) -> Vec<(u32, u32, [u8; 4])> {
    use skinned_effect::Lighting;
    let p = basic_params(scene, permutation.fog);
    let bones = logical_bones(&skinned::bones());
    let mesh = skinned::mesh(permutation.weights);
    let count = skinned::influences(permutation.weights);
    let texture = skinned::texture();
    let skinned: Vec<([f32; 4], [f32; 3])> = mesh
        .vertices
        .iter()
        .map(|v| {
            let indices = v.indices.map(usize::from);
            let weights = v.weights.map(|w| f32::from(w) / 255.0);
            skin(&bones, v.position, v.normal, indices, weights, count)
        })
        .collect();
    if permutation.lighting == Lighting::Pixel {
        let vout: Vec<PixelLightingVaryings> = mesh
            .vertices
            .iter()
            .zip(&skinned)
            .map(|(v, &(position, normal))| p.vs_pixel_lighting_tx(position, normal, v.uv))
            .collect();
        let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
        expected_pixels(&clip, &mesh.indices, |t, w| {
            let pin = pixel_lighting_at(t.map(|i| vout[i]), w);
            Some(p.ps_pixel_lighting_tx(nearest_texel(&texture, pin.tex_coord)?, &pin))
        })
    } else {
        let lights = if permutation.lighting == Lighting::OneLight { 1 } else { 3 };
        let vout: Vec<VertexLightingVaryings> = skinned
            .iter()
            .map(|&(position, normal)| {
                let mut v = p.vs_vertex_lighting(position, normal, [1.0; 4], lights);
                if !permutation.fog {
                    v.specular[3] = 0.0;
                }
                v
            })
            .collect();
        let clip: Vec<[f32; 4]> = vout.iter().map(|o| o.position_ps).collect();
        expected_pixels(&clip, &mesh.indices, |t, w| {
            let pin = vertex_lighting_at(t.map(|i| vout[i]), w);
            let uv = interpolate(w, t.map(|i| mesh.vertices[i].uv));
            Some(p.ps_vertex_lighting_tx(nearest_texel(&texture, uv)?, &pin))
        })
    }
}

#[test]
fn skinned_effect_tiles_match_cpu_model() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    let scene = skinned::scene();
    let (mut pixels, mut worst) = (0, 0);
    for (label, permutation) in skinned::TILES {
        let expected = skinned_expected(&scene, permutation);
        let (n, w) = compare(&format!("SkinnedEffect / {label}"), tile(sheet, skinned::FAMILY, label), &expected);
        pixels += n;
        worst = worst.max(w);
    }
    println!("SkinnedEffect: {pixels} pixels in {} tiles, largest difference {worst}/255", skinned::TILES.len());

    // Can fail: two of the chain's bones swapped in the constant buffer.
    let gpu = gpu_or_skip("skinned_effect_tiles_match_cpu_model").expect("the sheet rendered, so a GPU exists");
    let (label, permutation) = skinned::TILES[7];
    let mut parameters = skinned::parameters(&scene, permutation);
    let (a, b) = (usize::from(skinned::BONE_SLOTS[1]), usize::from(skinned::BONE_SLOTS[3]));
    parameters.bones.swap(a, b);
    let image = skinned::render_with(&gpu, permutation, &skinned::mesh(permutation.weights), &parameters)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_detected(&format!("SkinnedEffect / {label}, bones swapped"), &image, &skinned_expected(&scene, permutation));
}

/// The point-sprite tiles' sprites, in draw order: every vertex of the torus, transformed and
/// coloured by BasicEffect's `VSBasic` (`VSBasicVc` with vertex colour; no fog) and written by
/// `PSBasic`, a square of `size` pixels around its projection.
fn point_sprites(scene: &LitScene, permutation: point_sprite_effect::Permutation, size: f32) -> Vec<Sprite> {
    let p = basic_params(scene, false);
    point_sprite::mesh()
        .vertices
        .iter()
        .map(|v| {
            let color = if permutation.vertex_color { v.color } else { [1.0; 4] };
            let out = p.vs_basic([v.position[0], v.position[1], v.position[2], 1.0], color);
            let rgba = to_unorm8(p.ps_basic([1.0; 4], &out));
            Sprite::new(out.position_ps, f64::from(size), rgba, TILE_WIDTH, TILE_HEIGHT)
        })
        .collect()
}

/// What the CPU model says a point-sprite tile shows at every pixel it can decide.
fn point_sprite_expected(sprites: &[Sprite]) -> Vec<(u32, u32, Shown, [u8; 4])> {
    let clear = to_unorm8([CLEAR_COLOR[0], CLEAR_COLOR[1], CLEAR_COLOR[2], 1.0]);
    let mut out = Vec::new();
    for y in 0..TILE_HEIGHT {
        for x in 0..TILE_WIDTH {
            if let Some(shown) = point_sprite_model::shown(sprites, x, y, EDGE_MARGIN, DEPTH_MARGIN) {
                let rgba = match shown {
                    Shown::Background => clear,
                    Shown::Sprite(i) => sprites[i].color,
                };
                out.push((x, y, shown, rgba));
            }
        }
    }
    out
}

#[test]
fn point_sprite_tiles_match_cpu_model() {
    let Some(sheet) = rendered_sheet() else {
        return;
    };
    let scene = point_sprite::scene();
    let pixels = |expected: &[(u32, u32, Shown, [u8; 4])]| -> Vec<(u32, u32, [u8; 4])> {
        expected.iter().map(|&(x, y, _, rgba)| (x, y, rgba)).collect()
    };
    for (label, permutation) in point_sprite::TILES {
        let sprites = point_sprites(&scene, permutation, point_sprite::SPRITE_SIZE);
        assert!(
            sprites.iter().all(|s| s.depth > 0.0 && s.depth < 1.0),
            "every point lies between the near and far planes"
        );
        let expected = point_sprite_expected(&sprites);
        let image = tile(sheet, point_sprite::FAMILY, label);
        compare(&format!("{} / {label}", point_sprite::FAMILY), image, &pixels(&expected));
        // What was checked: many sprites, each at its centre pixel among others, and background
        // around and inside the torus.
        let shown: std::collections::BTreeSet<usize> =
            expected.iter().filter_map(|&(_, _, s, _)| if let Shown::Sprite(i) = s { Some(i) } else { None }).collect();
        let centres = expected
            .iter()
            .filter(|&&(x, y, s, _)| {
                let Shown::Sprite(i) = s else { return false };
                let c = sprites[i].centre;
                (c[0].floor(), c[1].floor()) == (f64::from(x), f64::from(y))
            })
            .count();
        let background = expected.iter().filter(|&&(_, _, s, _)| s == Shown::Background).count();
        println!(
            "{label}: {} of {} pixels decided: {} sprites of {} shown, {centres} at their centre pixel, \
             {background} background pixels",
            expected.len(),
            TILE_WIDTH * TILE_HEIGHT,
            shown.len(),
            sprites.len()
        );
        assert!(shown.len() >= 200 && centres >= 100, "{label}: too few sprites checked");
        assert!(background >= 1000, "{label}: too few background pixels checked");

        // The torus's centre (the object-space origin) projects into its hole: background.
        let hole = basic_params(&scene, false).vs_basic([0.0, 0.0, 0.0, 1.0], [1.0; 4]).position_ps;
        let [hx, hy] = dxbc_wgsl_tests::raster::to_screen(hole, TILE_WIDTH, TILE_HEIGHT).map(|c| c.floor() as u32);
        let at = expected.iter().find(|&&(x, y, _, _)| (x, y) == (hx, hy));
        assert!(
            matches!(at, Some((_, _, Shown::Background, _))),
            "{label}: the model leaves pixel ({hx}, {hy}) in the hole background"
        );
        assert_eq!(image.pixel(hx, hy), at.unwrap().3, "{label}: pixel ({hx}, {hy}) in the torus's hole");
    }

    // Can fail: sprites of twice the size (the geometry shader's half size doubled).
    let gpu = gpu_or_skip("point_sprite_tiles_match_cpu_model").expect("the sheet rendered, so a GPU exists");
    let (label, permutation) = point_sprite::TILES[1];
    let image = point_sprite::render_with(
        &gpu,
        permutation,
        &point_sprite::parameters(&scene),
        &point_sprite::sprite(2.0 * point_sprite::SPRITE_SIZE),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let expected = point_sprite_expected(&point_sprites(&scene, permutation, point_sprite::SPRITE_SIZE));
    assert_detected(&format!("{} / {label}, sprites twice the size", point_sprite::FAMILY), &image, &pixels(&expected));
}
