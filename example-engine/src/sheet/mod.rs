//! The contact sheet (`example-engine --all-effects`): every DirectXTK effect family, each with up
//! to eight of its permutations, drawn through the generated bindings into labelled tiles of one
//! image, and the point sprites (`point_sprite`: BasicEffect's shaders around a geometry shader
//! of the project's own, the sheet's pass with a geometry shader).
//!
//! Each family module (`basic`, `skinned`, ...) exposes its scene in application terms (`scene()`,
//! `mesh()`, textures), the constants it derives from them the way DirectXTK's C++ classes do
//! (`parameters`), its tiles (`TILES`: label and permutation) and `render`, so that tests can
//! recompute the tiles' pixels independently.

pub mod alpha_test;
pub mod basic;
pub mod common;
pub mod debug;
pub mod dual_texture;
pub mod environment_map;
pub mod font;
pub mod normal_map;
pub mod point_sprite;
pub mod post_process;
pub mod skinned;
pub mod sprite;
pub mod tone_map;

use crate::gpu::{Gpu, GpuError};
use crate::target::Image;
pub use common::{TILE_HEIGHT, TILE_WIDTH};

/// A family's tiles as its module renders them: label, and the tile or why it failed.
pub type RenderedTiles = Vec<(String, Result<Image, GpuError>)>;

/// One family's row of the sheet.
struct Family {
    name: &'static str,
    /// Permutations the effect file declares.
    permutations: usize,
    tiles: fn(&Gpu) -> RenderedTiles,
}

/// The rows, in order.
fn families() -> [Family; 12] {
    use crate::effects::{
        alpha_test_effect, basic_effect, basic_post_process, debug_effect, dual_post_process, dual_texture_effect,
        environment_map_effect, normal_map_effect, point_sprite_effect, skinned_effect, sprite_effect,
    };
    [
        Family {
            name: alpha_test::FAMILY,
            permutations: alpha_test_effect::Permutation::COUNT,
            tiles: alpha_test::tiles,
        },
        Family { name: basic::FAMILY, permutations: basic_effect::Permutation::COUNT, tiles: basic::tiles },
        Family { name: debug::FAMILY, permutations: debug_effect::Permutation::COUNT, tiles: debug::tiles },
        Family {
            name: dual_texture::FAMILY,
            permutations: dual_texture_effect::Permutation::COUNT,
            tiles: dual_texture::tiles,
        },
        Family {
            name: environment_map::FAMILY,
            permutations: environment_map_effect::Permutation::COUNT,
            tiles: environment_map::tiles,
        },
        Family {
            name: normal_map::FAMILY,
            permutations: normal_map_effect::Permutation::COUNT,
            tiles: normal_map::tiles,
        },
        Family {
            name: point_sprite::FAMILY,
            permutations: point_sprite_effect::Permutation::COUNT,
            tiles: point_sprite::tiles,
        },
        Family {
            name: post_process::BASIC_FAMILY,
            permutations: basic_post_process::Permutation::COUNT,
            tiles: post_process::basic_tiles,
        },
        Family {
            name: post_process::DUAL_FAMILY,
            permutations: dual_post_process::Permutation::COUNT,
            tiles: post_process::dual_tiles,
        },
        Family { name: skinned::FAMILY, permutations: skinned_effect::Permutation::COUNT, tiles: skinned::tiles },
        Family { name: sprite::FAMILY, permutations: sprite_effect::Permutation::COUNT, tiles: sprite::tiles },
        Family {
            name: tone_map::FAMILY,
            permutations: crate::effects::tone_map::Permutation::COUNT,
            tiles: tone_map::tiles,
        },
    ]
}

/// One tile of the sheet.
#[derive(Clone, Debug)]
pub struct Tile {
    /// The effect family (row).
    pub family: &'static str,
    /// What the tile shows (the permutation, in words).
    pub label: String,
    /// The rendered tile, or why it could not be rendered (also written on the tile).
    pub result: Result<Image, String>,
    /// Top-left corner of the tile's picture in the sheet.
    pub x: u32,
    pub y: u32,
}

/// A family's row: how many of its permutations the sheet shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub family: &'static str,
    pub permutations: usize,
    pub tiles: usize,
    pub failed: usize,
}

/// The rendered contact sheet.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub image: Image,
    pub rows: Vec<Row>,
    pub tiles: Vec<Tile>,
}

impl Sheet {
    /// The tile of `family` labelled `label`.
    pub fn tile(&self, family: &str, label: &str) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.family == family && t.label == label)
    }

    /// The tiles of `family`, in order.
    pub fn family(&self, family: &str) -> Vec<&Tile> {
        self.tiles.iter().filter(|t| t.family == family).collect()
    }
}

/// Most tiles per row.
pub const COLUMNS: u32 = 8;
const MARGIN: u32 = 8;
const GAP: u32 = 6;
const TITLE_HEIGHT: u32 = 16;
const HEADER_HEIGHT: u32 = 12;
const LABEL_LINES: usize = 2;
/// Height of the label strip under each tile.
pub const LABEL_HEIGHT: u32 = LABEL_LINES as u32 * font::LINE_HEIGHT + 2;
const ROW_HEIGHT: u32 = HEADER_HEIGHT + TILE_HEIGHT + LABEL_HEIGHT + GAP;
const BACKGROUND: [u8; 4] = [28, 28, 32, 255];
/// The colour of the tiles' labels.
pub const LABEL_COLOR: [u8; 4] = [215, 215, 220, 255];
const HEADER_TEXT: [u8; 4] = [255, 196, 90, 255];
const ERROR_TEXT: [u8; 4] = [255, 235, 235, 255];
const ERROR_FILL: [u8; 4] = [120, 20, 24, 255];

/// Renders every family's tiles and lays them out with their labels. A tile that fails to render
/// says why on the sheet (and in [`Tile::result`]); nothing is skipped.
pub fn render_sheet(gpu: &Gpu) -> Sheet {
    let families = families();
    let width = 2 * MARGIN + COLUMNS * TILE_WIDTH + (COLUMNS - 1) * GAP;
    let height = MARGIN + TITLE_HEIGHT + families.len() as u32 * ROW_HEIGHT + MARGIN;
    let mut image = Image { width, height, rgba: BACKGROUND.repeat((width * height) as usize) };
    font::draw_text(
        &mut image,
        MARGIN,
        MARGIN,
        "DirectXTK effects translated from DXBC to WGSL by dxbc-wgsl, drawn with wgpu",
        HEADER_TEXT,
        width - 2 * MARGIN,
    );
    let mut rows = Vec::new();
    let mut tiles = Vec::new();
    for (r, family) in families.iter().enumerate() {
        let top = MARGIN + TITLE_HEIGHT + r as u32 * ROW_HEIGHT;
        let rendered = (family.tiles)(gpu);
        let failed = rendered.iter().filter(|(_, result)| result.is_err()).count();
        let header = format!(
            "{}: {} of {} permutation{}{}",
            family.name,
            rendered.len(),
            family.permutations,
            if family.permutations == 1 { "" } else { "s" },
            if failed > 0 { format!(", {failed} FAILED") } else { String::new() }
        );
        font::draw_text(&mut image, MARGIN, top + 2, &header, HEADER_TEXT, width - 2 * MARGIN);
        rows.push(Row { family: family.name, permutations: family.permutations, tiles: rendered.len(), failed });
        for (c, (label, result)) in rendered.into_iter().enumerate() {
            let (x, y) = (MARGIN + c as u32 * (TILE_WIDTH + GAP), top + HEADER_HEIGHT);
            let result = result.map_err(|e| e.to_string());
            match &result {
                Ok(tile) => blit(&mut image, tile, x, y),
                Err(error) => draw_failure(&mut image, x, y, error),
            }
            for (i, line) in
                font::wrap(&label, (TILE_WIDTH / font::ADVANCE) as usize).iter().take(LABEL_LINES).enumerate()
            {
                font::draw_text(
                    &mut image,
                    x,
                    y + TILE_HEIGHT + 2 + i as u32 * font::LINE_HEIGHT,
                    line,
                    LABEL_COLOR,
                    TILE_WIDTH,
                );
            }
            tiles.push(Tile { family: family.name, label, result, x, y });
        }
    }
    Sheet { image, rows, tiles }
}

/// Copies `tile` into `image` at (x, y).
fn blit(image: &mut Image, tile: &Image, x: u32, y: u32) {
    for row in 0..tile.height {
        let src = (row * tile.width * 4) as usize;
        let dst = (((y + row) * image.width + x) * 4) as usize;
        image.rgba[dst..dst + (tile.width * 4) as usize]
            .copy_from_slice(&tile.rgba[src..src + (tile.width * 4) as usize]);
    }
}

/// A red tile with "FAILED" and the error, wrapped.
fn draw_failure(image: &mut Image, x: u32, y: u32, error: &str) {
    let fill =
        Image { width: TILE_WIDTH, height: TILE_HEIGHT, rgba: ERROR_FILL.repeat((TILE_WIDTH * TILE_HEIGHT) as usize) };
    blit(image, &fill, x, y);
    font::draw_text(image, x + 3, y + 3, "FAILED:", ERROR_TEXT, TILE_WIDTH - 6);
    let columns = ((TILE_WIDTH - 6) / font::ADVANCE) as usize;
    let lines = (TILE_HEIGHT - 3 - font::LINE_HEIGHT) / font::LINE_HEIGHT;
    for (i, line) in font::wrap(error, columns).iter().take(lines as usize).enumerate() {
        font::draw_text(image, x + 3, y + 3 + (i as u32 + 1) * font::LINE_HEIGHT, line, ERROR_TEXT, TILE_WIDTH - 6);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every family's tiles show distinct permutations that its effect file declares, with distinct
    /// labels that fit the label strip.
    #[test]
    fn tiles_are_distinct_declared_permutations() {
        fn check<P: Copy + PartialEq + std::fmt::Debug>(family: &str, tiles: &[(&str, P)], exists: impl Fn(P) -> bool) {
            assert!(!tiles.is_empty() && tiles.len() <= COLUMNS as usize, "{family}: {} tiles", tiles.len());
            for (i, (label, p)) in tiles.iter().enumerate() {
                assert!(exists(*p), "{family}: {label}: {p:?} is not a permutation of the effect");
                let lines = font::wrap(label, (TILE_WIDTH / font::ADVANCE) as usize);
                assert!(lines.len() <= LABEL_LINES, "{family}: label `{label}` needs {} lines", lines.len());
                for (other_label, other) in &tiles[i + 1..] {
                    assert_ne!(label, other_label, "{family}: two tiles labelled `{label}`");
                    assert_ne!(p, other, "{family}: `{label}` and `{other_label}` show the same permutation");
                }
            }
        }
        use crate::effects::{
            alpha_test_effect, basic_post_process, dual_post_process, dual_texture_effect, point_sprite_effect,
            sprite_effect,
        };
        check(alpha_test::FAMILY, &alpha_test::TILES, |p| p.index().is_some());
        check(basic::FAMILY, &basic::TILES, |p| p.index().is_some());
        check(debug::FAMILY, &debug::TILES, |p| p.index().is_some());
        check(dual_texture::FAMILY, &dual_texture::TILES, |p| p.index().is_some());
        check(environment_map::FAMILY, &environment_map::TILES, |p| p.index().is_some());
        check(normal_map::FAMILY, &normal_map::TILES, |p| p.index().is_some());
        check(point_sprite::FAMILY, &point_sprite::TILES, |p| p.index().is_some());
        check(post_process::BASIC_FAMILY, &post_process::BASIC_TILES, |p| p.index().is_some());
        check(post_process::DUAL_FAMILY, &post_process::DUAL_TILES, |p| p.index().is_some());
        check(skinned::FAMILY, &skinned::TILES, |p| p.index().is_some());
        check(tone_map::FAMILY, &tone_map::TILES, |p| p.index().is_some());
        // Families with at most eight permutations show all of them.
        assert_eq!(alpha_test::TILES.len(), alpha_test_effect::Permutation::COUNT);
        assert_eq!(dual_texture::TILES.len(), dual_texture_effect::Permutation::COUNT);
        assert_eq!(post_process::BASIC_TILES.len(), basic_post_process::Permutation::COUNT);
        assert_eq!(post_process::DUAL_TILES.len(), dual_post_process::Permutation::COUNT);
        assert_eq!(sprite::TILES.len(), sprite_effect::Permutation::COUNT);
        assert_eq!(point_sprite::TILES.len(), point_sprite_effect::Permutation::COUNT);
    }

    #[test]
    fn a_failed_tile_is_red_and_says_why() {
        let (w, h) = (TILE_WIDTH + 10, TILE_HEIGHT + 10);
        let mut image = Image { width: w, height: h, rgba: BACKGROUND.repeat((w * h) as usize) };
        draw_failure(&mut image, 5, 5, "the translator refused instruction 12 (resinfo)");
        assert_eq!(image.pixel(4, 4), BACKGROUND);
        assert_eq!(image.pixel(5 + TILE_WIDTH - 1, 5 + TILE_HEIGHT - 1), ERROR_FILL);
        let text = |y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (5..5 + TILE_WIDTH).map(move |x| (x, y)))
                .filter(|&(x, y)| image.pixel(x, y) == ERROR_TEXT)
                .count()
        };
        // "FAILED:" on the first line, the message on the next ones.
        assert!(text(8, 8 + font::LINE_HEIGHT) > 20);
        assert!(text(8 + font::LINE_HEIGHT, 8 + 3 * font::LINE_HEIGHT) > 100);
    }

    #[test]
    fn skinned_weights_are_renormalised_to_the_kept_bones() {
        use crate::effects::skinned_effect::Weights;
        for weights in [Weights::One, Weights::Two, Weights::Four] {
            let keep = skinned::influences(weights);
            for v in skinned::mesh(weights).vertices {
                assert_eq!(v.weights.iter().map(|&w| u32::from(w)).sum::<u32>(), 255, "{v:?}");
                assert!(v.weights[keep..].iter().all(|&w| w == 0), "{weights:?}: {v:?}");
                assert!(v.weights.windows(2).take(keep).all(|w| w[0] >= w[1] || w[1] == 0), "{v:?}");
                assert!(v.indices.iter().all(|i| skinned::BONE_SLOTS.contains(i)));
            }
        }
    }
}
