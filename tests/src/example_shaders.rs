//! The shaders example-engine ships of its own (`example-engine/shaders/own/`), assembled here:
//! the DirectXTK corpus has no geometry shader, so the contact sheet's point-sprite tiles
//! (`example-engine/effects/point_sprite.effect.toml`) draw DirectXTK's BasicEffect vertex and
//! pixel shaders around this project's point-sprite geometry shader. `example/own_shaders.rs`
//! checks that the committed blobs are what this module assembles (`DXBC_WGSL_BLESS=1` rewrites
//! them).

use crate::asm::*;

/// The corners of a sprite in units of its half size, in the order of the triangle strip the
/// geometry shader emits: bottom left, top left, bottom right, top right (clip space, y up). Both
/// triangles (0, 1, 2) and (2, 1, 3), as D3D orders a strip's odd triangle, are clockwise on
/// screen: front faces under D3D11's default rasterizer state (`FrontCounterClockwise = FALSE`),
/// which the effect keeps, back faces culled.
pub const SPRITE_CORNERS: [[f32; 2]; 4] = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]];

/// The register of the geometry shader's constant buffer `Sprite` (`b1`: BasicEffect's vertex
/// shaders bind `Parameters` at b0).
pub const SPRITE_CBUFFER: u32 = 1;

/// `gs_4_0`: points in, one four-vertex triangle strip out per point, a screen-aligned quad of a
/// constant size in pixels around it. The signatures are BasicEffect's vertex-shader output
/// (`o0` COLOR, `o1` SV_Position):
///
/// ```text
/// dcl_constantbuffer cb1[1], immediateIndexed   // cb1[0].xy: HalfSize, in clip space at w = 1
/// dcl_inputprimitive point
/// dcl_outputtopology trianglestrip
/// dcl_maxout 4
/// dcl_input v[1][0].xyzw                        // COLOR
/// dcl_input_siv v[1][1].xyzw, position          // SV_Position
/// dcl_output o0.xyzw
/// dcl_output_siv o1.xyzw, position
/// dcl_temps 1
/// mul r0.xy, cb1[0].xyxx, v[0][1].wwww          // the half size scaled by w: constant on screen
/// mad o1.xy, r0.xyxx, l(cx, cy, 0, 0), v[0][1].xyxx   // per corner (cx, cy) of SPRITE_CORNERS
/// mov o1.zw, v[0][1].xxzw
/// mov o0.xyzw, v[0][0].xyzw
/// emit
/// ...                                           // three more corners
/// ret
/// ```
pub fn point_sprite_gs() -> Vec<u8> {
    let signature = [Element("COLOR", 0, 0, 3, 0, "xyzw"), Element("SV_Position", 0, NAME_POSITION, 3, 1, "xyzw")];
    // Operand token of `cb#[#]` with two immediate indices and no component selection.
    let cb_decl = ins(DCL_CONSTANT_BUFFER, &[vec![0x0020_8e46, SPRITE_CBUFFER, 1]]);
    let decls = [
        cb_decl,
        dcl_input_primitive(1),
        dcl_output_topology(5),
        dcl_max_output(SPRITE_CORNERS.len() as u32),
        dcl_gs_input(1, 0, "xyzw", 0),
        dcl_gs_input(1, 1, "xyzw", NAME_POSITION),
        dcl_output(0, "xyzw", 0),
        dcl_output(1, "xyzw", NAME_POSITION),
    ];
    let mut body = vec![ins(MUL, &[dst(TEMP, 0, "xy"), cb(SPRITE_CBUFFER, 0, "xyxx"), src_vertex(0, 1, "wwww")])];
    for [x, y] in SPRITE_CORNERS {
        body.push(ins(
            MAD,
            &[
                dst(OUTPUT, 1, "xy"),
                src(TEMP, 0, "xyxx"),
                imm([x.to_bits(), y.to_bits(), 0, 0]),
                src_vertex(0, 1, "xyxx"),
            ],
        ));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "zw"), src_vertex(0, 1, "xxzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]));
        body.push(bare(EMIT));
    }
    shader(GS_4_0, &signature, &signature, &decls, 1, &body)
}

/// The blobs by file name, as `example-engine/shaders/own/` holds them.
pub fn blobs() -> [(&'static str, Vec<u8>); 1] {
    [("PointSprite_GS.dxbc", point_sprite_gs())]
}
