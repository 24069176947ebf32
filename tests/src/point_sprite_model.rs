//! Point sprites on the CPU: each point drawn as a screen-aligned square of a constant size in
//! pixels around its projected position, at its depth, in one colour; which sprite (or none) a
//! pixel then shows under a `LESS` depth test with depth cleared to 1, as D3D and WebGPU draw it.
//!
//! Pixels where rounding could decide are left out: a centre closer than a margin to the edge of a
//! sprite that could show there, or two sprites of different colours at depths too close to
//! order.

use crate::raster::to_screen;

/// One point's sprite on the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    /// The point's framebuffer position (pixels, y down).
    pub centre: [f64; 2],
    /// Half its width and height, in pixels.
    pub half: [f64; 2],
    /// Its depth (`z / w`), constant over the sprite.
    pub depth: f64,
    /// The colour it is drawn in, as the target stores it.
    pub color: [u8; 4],
}

impl Sprite {
    /// The sprite of the point at clip-space position `clip`, `size` pixels wide and high, on a
    /// `width` x `height` target.
    pub fn new(clip: [f32; 4], size: f64, color: [u8; 4], width: u32, height: u32) -> Self {
        Self {
            centre: to_screen(clip, width, height),
            half: [size / 2.0; 2],
            depth: f64::from(clip[2]) / f64::from(clip[3]),
            color,
        }
    }

    /// How far the point `p` lies inside the sprite, in pixels: the distance to its nearest edge,
    /// negative outside.
    pub fn inside_by(&self, p: [f64; 2]) -> f64 {
        let dx = self.half[0] - (p[0] - self.centre[0]).abs();
        let dy = self.half[1] - (p[1] - self.centre[1]).abs();
        dx.min(dy)
    }
}

/// What a pixel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// No sprite: the clear colour.
    Background,
    /// The sprite of this index (draw order), in its colour.
    Sprite(usize),
}

/// Which sprite the centre of pixel (x, y) shows, or `None` when rounding could decide: some
/// sprite's edge lies within `edge_margin` pixels of the centre and that sprite could win the
/// depth test there (it is not behind the winner by more than `depth_margin`) with another
/// colour, or the nearest sprites covering it lie within `depth_margin` of each other in depth
/// with different colours. `sprites` are in draw order (on equal depths the first drawn stays).
pub fn shown(sprites: &[Sprite], x: u32, y: u32, edge_margin: f64, depth_margin: f64) -> Option<Shown> {
    let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
    let mut winner: Option<usize> = None;
    for (i, s) in sprites.iter().enumerate() {
        if s.inside_by(p) > edge_margin && winner.is_none_or(|w| s.depth < sprites[w].depth) {
            winner = Some(i);
        }
    }
    let color = |shown: Option<usize>| shown.map(|i| sprites[i].color);
    for (i, s) in sprites.iter().enumerate() {
        if Some(i) == winner || color(Some(i)) == color(winner) {
            continue;
        }
        let inside = s.inside_by(p);
        if inside < -edge_margin {
            continue;
        }
        // Covering or nearly covering, with another colour: it must lie clearly behind.
        let clearly_behind = winner.is_some_and(|w| s.depth > sprites[w].depth + depth_margin);
        if !clearly_behind {
            return None;
        }
    }
    Some(winner.map_or(Shown::Background, Shown::Sprite))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprite(centre: [f64; 2], depth: f64, color: u8) -> Sprite {
        Sprite { centre, half: [1.5, 1.5], depth, color: [color, 0, 0, 255] }
    }

    #[test]
    fn the_nearest_covering_sprite_shows() {
        let sprites = [sprite([5.0, 5.0], 0.5, 1), sprite([5.5, 5.0], 0.4, 2), sprite([20.0, 5.0], 0.1, 3)];
        // Pixel (4, 4) (centre 4.5, 4.5): inside both first sprites, the second is nearer.
        assert_eq!(shown(&sprites, 4, 4, 0.3, 1e-5), Some(Shown::Sprite(1)));
        // Pixel (3, 4) (centre 3.5): only the first covers it, 0 from its edge: ambiguous.
        assert_eq!(shown(&sprites, 3, 4, 0.3, 1e-5), None);
        assert_eq!(shown(&sprites, 12, 12, 0.3, 1e-5), Some(Shown::Background));
    }

    #[test]
    fn close_depths_of_different_colours_are_left_out() {
        let sprites = [sprite([5.0, 5.0], 0.5, 1), sprite([5.0, 5.0], 0.5 + 1e-7, 2)];
        assert_eq!(shown(&sprites, 4, 4, 0.3, 1e-5), None);
        let same = [sprite([5.0, 5.0], 0.5, 1), sprite([5.0, 5.0], 0.5 + 1e-7, 1)];
        assert_eq!(shown(&same, 4, 4, 0.3, 1e-5), Some(Shown::Sprite(0)));
    }
}
