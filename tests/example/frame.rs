//! Smoke test of example-engine's frame: BasicEffect (built by `Builder`) draws the torus and
//! DualTextureEffect (built by `include_effect!`) draws the fogged, checkered ground. BasicEffect's
//! exact colours are checked in basic_effect.rs; here the frame must show both objects.
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips.

use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::scene::{render_frame, Scene};

#[test]
fn frame_shows_torus_and_ground() {
    let Some(gpu) = gpu_or_skip("frame_shows_torus_and_ground") else {
        return;
    };
    let (w, h) = (160, 120);
    let frame = render_frame(&gpu, w, h).unwrap_or_else(|e| panic!("{e}"));
    let fog = Scene::default().fog.color.map(|c| (c * 255.0).round() as u8);
    let distance_to_fog = |p: [u8; 4]| (0..3).map(|c| u32::from(p[c].abs_diff(fog[c]))).sum::<u32>();

    // Sky: the clear colour, which is the fog colour.
    let sky = frame.pixel(2, 2);
    assert!(distance_to_fog(sky) <= 3, "sky {sky:?}, fog colour {fog:?}");

    // Torus: its orange/cream checker makes warm pixels (red well above blue); nothing else does.
    let warm = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = frame.pixel(x, y);
            p[0] > 150 && i32::from(p[0]) - i32::from(p[2]) > 60
        })
        .count();
    let warm_share = warm as f64 / f64::from(w * h);

    // Ground: the bottom row is drawn (far from the fog colour) with light and dark checker cells;
    // towards the horizon the fog takes over.
    let frame = &frame;
    let row = |y: u32| (0..w).map(move |x| frame.pixel(x, y));
    let bottom = h - 2;
    let near_fog = row(bottom).map(distance_to_fog).min().unwrap();
    let luminance = |p: [u8; 4]| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]);
    let (darkest, lightest) =
        row(bottom).fold((u32::MAX, 0), |(lo, hi), p| (lo.min(luminance(p)), hi.max(luminance(p))));
    // Towards the horizon the fog takes over: compare the left and right margins (clear of the
    // torus) just under the horizon with the same margins in the bottom row.
    let horizon = (0..h).find(|&y| distance_to_fog(frame.pixel(2, y)) > 3).expect("the ground reaches the left edge");
    let margins = |y: u32| {
        let xs = (0..16).chain(w - 16..w);
        xs.map(|x| distance_to_fog(frame.pixel(x, y))).sum::<u32>() / 32
    };
    let (far_fog, near_margins) = (margins(horizon + 2), margins(bottom));
    println!(
        "frame {w}x{h}: warm (torus) pixels {:.1}%, bottom row: distance to fog colour >= \
         {near_fog}, luminance {darkest}..{lightest}; mean distance to fog colour in the \
         margins: {near_margins} at the bottom, {far_fog} just under the horizon (row {horizon})",
        warm_share * 100.0
    );
    assert!(warm_share > 0.03, "the torus covers {:.1}% of the frame", warm_share * 100.0);
    assert!(near_fog > 30, "the near ground looks like fog");
    assert!(lightest > darkest + 60, "no checker on the ground: {darkest}..{lightest}");
    assert!(far_fog * 3 < near_fog, "fog does not thicken with distance: {far_fog} vs {near_fog}");
}
