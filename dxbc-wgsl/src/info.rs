//! A human-readable summary of a blob (`dxbc-wgsl info FILE`): the container, its chunks, the
//! program's stage and model, the signatures as fxc prints them, reflection, feature flags and
//! the root signature.

use std::fmt::Write as _;

use crate::chunks::rdef::{ConstantBuffer, InputBinding, InputType, Reflection, Type};
use crate::chunks::rts0::{RootParameterKind, RootSignature};
use crate::chunks::signature::{self, ComponentType, Signature, SignatureElement};
use crate::chunks::{ifce, rdef, rts0, sfi0, stat, ChunkKind};
use crate::classify::{classify, effect_profile, BlobKind};
use crate::container::{checksum_of, Container, ReadOptions};
use crate::error::{ReadError, ReadResult};
use crate::sm4::decode_program;

/// Renders a summary of `bytes`.
///
/// A chunk that cannot be decoded is reported in its section as `error: ...`, so the rest is
/// still shown; a checksum mismatch is reported, not an error.
///
/// # Errors
/// [`ReadError`] when the bytes are neither a readable DXBC container nor a bare effect.
pub fn info(bytes: &[u8]) -> ReadResult<String> {
    let class = classify(bytes);
    let mut out = String::new();
    if bytes.len() < 4 || &bytes[0..4] != b"DXBC" {
        if let BlobKind::Effect { version, .. } = class.kind {
            let profile = effect_profile(version).unwrap_or("?");
            let _ =
                writeln!(out, "Bare effect payload, {} bytes, {profile} (version word {version:#010x})", bytes.len());
            let _ = writeln!(out, "Kind: effect: {}", class.reason);
            return Ok(out);
        }
        // Let the container reader produce the typed error.
        return Err(Container::parse(bytes, &ReadOptions { verify_checksum: false })
            .err()
            .unwrap_or(ReadError::BadMagic { found: [0; 4] }));
    }
    let container = Container::parse(bytes, &ReadOptions { verify_checksum: false })?;
    let computed = checksum_of(container.bytes);
    let _ = writeln!(
        out,
        "DXBC container {}.{}, {} bytes, checksum {} ({})",
        container.version.0,
        container.version.1,
        container.bytes.len(),
        hex(&container.checksum),
        if computed == container.checksum {
            "ok".to_string()
        } else {
            format!("MISMATCH: contents hash to {}", hex(&computed))
        }
    );
    if container.bytes.len() < bytes.len() {
        let _ = writeln!(out, "{} bytes after the container's end are ignored", bytes.len() - container.bytes.len());
    }
    let _ = writeln!(out, "Kind: {}: {}", class.kind.name(), class.reason);

    out.push_str("\nChunks:\n");
    let _ = writeln!(out, "  {:>2}  {:<6} {:>8} {:>8}  Contents", "#", "FourCC", "Offset", "Size");
    for (i, c) in container.chunks.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {i:>2}  {:<6} {:>#8x} {:>8}  {}",
            c.name(),
            c.offset - 8,
            c.data.len(),
            ChunkKind::of(&c.fourcc).describe()
        );
    }

    if let Some(chunk) = container.program_chunk() {
        out.push('\n');
        match decode_program(chunk) {
            Ok(p) => {
                let decls = p.instructions.iter().filter(|i| i.opcode.is_declaration()).count();
                let _ = writeln!(
                    out,
                    "Program: {} shader {}_{}_{}, {} instructions ({} declarations, {} other)",
                    p.version.stage.name(),
                    p.version.stage.prefix(),
                    p.version.major,
                    p.version.minor,
                    p.instructions.len(),
                    decls,
                    p.instructions.len() - decls
                );
            }
            Err(e) => {
                let _ = writeln!(out, "Program: error: {e}");
            }
        }
    }

    let signatures: [(&str, &[&[u8; 4]], bool); 3] = [
        ("Input signature", &[b"ISGN", b"ISG1"], false),
        ("Output signature", &[b"OSGN", b"OSG5", b"OSG1"], true),
        ("Patch constant signature", &[b"PCSG", b"PSG1"], true),
    ];
    for (title, names, is_output) in signatures {
        let Some(chunk) = names.iter().find_map(|n| container.chunk(n)) else {
            continue;
        };
        let _ = writeln!(out, "\n{title} ({}):\n", chunk.name());
        match signature::parse(chunk) {
            Ok(sig) => render_signature(&mut out, &sig, is_output),
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
        }
    }

    if let Some(chunk) = container.chunk(b"RDEF") {
        match rdef::parse(chunk) {
            Ok(r) => render_reflection(&mut out, &r),
            Err(e) => {
                let _ = writeln!(out, "\nReflection: error: {e}");
            }
        }
    }
    if let Some(chunk) = container.chunk(b"SFI0") {
        match sfi0::parse(chunk) {
            Ok(f) => {
                let names = f.names();
                let _ = writeln!(
                    out,
                    "\nFeature flags: {:#x}{}",
                    f.0,
                    if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) }
                );
            }
            Err(e) => {
                let _ = writeln!(out, "\nFeature flags: error: {e}");
            }
        }
    }
    if let Some(chunk) = container.chunk(b"IFCE") {
        match ifce::parse(chunk) {
            Ok(i) => {
                let names: Vec<&str> = i.class_types.iter().map(|c| c.name.as_str()).collect();
                let _ = writeln!(
                    out,
                    "\nInterfaces: {} class instances, {} class types ({}), {} interface slots in {} records",
                    i.class_instance_count,
                    i.class_type_count,
                    names.join(", "),
                    i.interface_slot_count,
                    i.interface_slot_record_count
                );
            }
            Err(e) => {
                let _ = writeln!(out, "\nInterfaces: error: {e}");
            }
        }
    }
    if let Some(chunk) = container.chunk(b"RTS0") {
        match rts0::parse(chunk) {
            Ok(r) => render_root_signature(&mut out, &r),
            Err(e) => {
                let _ = writeln!(out, "\nRoot signature: error: {e}");
            }
        }
    }
    if let Some(chunk) = container.chunk(b"STAT") {
        match stat::parse(chunk) {
            Ok(s) => {
                let named: Vec<String> = s.named().filter(|(_, v)| *v != 0).map(|(n, v)| format!("{n} {v}")).collect();
                let _ = writeln!(
                    out,
                    "\nStatistics ({} counters): {}",
                    s.counters.len(),
                    if named.is_empty() { "all zero".to_string() } else { named.join(", ") }
                );
            }
            Err(e) => {
                let _ = writeln!(out, "\nStatistics: error: {e}");
            }
        }
    }
    Ok(out)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `xyzw` positions of a mask, with spaces for missing components (`"x z "`).
fn mask_chars(mask: u8) -> String {
    ['x', 'y', 'z', 'w'].iter().enumerate().map(|(i, &c)| if mask & (1 << i) != 0 { c } else { ' ' }).collect()
}

/// The resources the program binds, from its declarations (so also for stripped blobs), with
/// the WGSL `@group`/`@binding` the translation gives them; when the shader does not translate,
/// why, and the declarations as written. Empty when the bytes hold no shader program. (Separate
/// from [`info`], which only reads: this translates.)
pub fn bindings(bytes: &[u8]) -> String {
    let mut out = String::new();
    render_wgsl_bindings(&mut out, bytes);
    out
}

fn render_wgsl_bindings(out: &mut String, bytes: &[u8]) {
    let Ok(shader) = crate::Shader::parse(bytes, &ReadOptions { verify_checksum: false }) else {
        return;
    };
    match crate::translate(bytes, &crate::TranslateOptions { skip_checksum: true, ..Default::default() }) {
        Ok(t) => {
            if t.bindings.is_empty() {
                out.push_str("\nResource bindings: none\n");
                return;
            }
            out.push_str("\nResource bindings (from the declarations; WGSL as translated):\n\n");
            let _ = writeln!(out, "{:<14} {:>5} {:>7}  WGSL", "Register", "Group", "Binding");
            let _ = writeln!(out, "{:-<14} {:->5} {:->7}  {:-<30}", "", "", "", "");
            for b in &t.bindings {
                let r = &b.register;
                let reg = match r.space {
                    0 => format!("{}{}", r.class.letter(), r.slot),
                    s => format!("{}{}, space{s}", r.class.letter(), r.slot),
                };
                let _ = writeln!(out, "{reg:<14} {:>5} {:>7}  {}", b.group, b.binding, describe_kind(&b.kind));
            }
        }
        Err(e) => {
            let decls: Vec<String> = shader
                .program
                .instructions
                .iter()
                .filter(|i| i.declaration().is_some_and(|d| d.binding().is_some()))
                .map(|i| crate::sm4::disasm::disassemble_instruction(&shader.program.version, i))
                .collect();
            let _ = writeln!(out, "\nResource bindings: not planned ({e})");
            if !decls.is_empty() {
                out.push_str("Declared resources:\n");
                for d in decls {
                    let _ = writeln!(out, "  {}", d.trim_end());
                }
            }
        }
    }
}

fn describe_kind(k: &crate::bindings::ResourceKind) -> String {
    use crate::bindings::{ResourceKind as K, TextureSample as S};
    match k {
        K::UniformBuffer { size_bytes } => format!("var<uniform>, {size_bytes} bytes"),
        K::Sampler { comparison: false } => "sampler".into(),
        K::Sampler { comparison: true } => "sampler_comparison".into(),
        K::Texture { dimension, sample, multisampled } => {
            let ms = if *multisampled { "multisampled_" } else { "" };
            let t = match sample {
                S::Float => format!("texture_{ms}{dimension}<f32> (filterable)"),
                S::UnfilterableFloat => format!("texture_{ms}{dimension}<f32> (unfilterable: only loaded)"),
                S::Sint => format!("texture_{ms}{dimension}<i32>"),
                S::Uint => format!("texture_{ms}{dimension}<u32>"),
                S::Depth => format!("texture_depth_{ms}{dimension}"),
            };
            with_caller_view(t, *dimension)
        }
        K::StorageBuffer { read_only: true } => "var<storage, read> array<u32>".into(),
        K::StorageBuffer { read_only: false } => "var<storage, read_write> array<u32>".into(),
        K::UavCounter => "var<storage, read_write> atomic<u32> (hidden counter)".into(),
        K::StorageTexture { dimension, format, read_write } => with_caller_view(
            format!("texture_storage_{dimension}<{format}, {}>", if *read_write { "read_write" } else { "write" }),
            *dimension,
        ),
    }
}

/// `t`, followed by what the caller binds for a D3D 1D texture (a 2D one of height 1).
fn with_caller_view(t: String, d: crate::bindings::ViewDimension) -> String {
    match d.caller_view() {
        Some(v) => format!("{t} ({v})"),
        None => t,
    }
}

/// fxc's name for a system value (`D3D_NAME`).
pub fn system_value_name(v: u32) -> String {
    let s = match v {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 => "QUADEDGE",
        12 => "QUADINT",
        13 => "TRIEDGE",
        14 => "TRIINT",
        15 => "LINEDET",
        16 => "LINEDEN",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        other => return other.to_string(),
    };
    s.to_string()
}

fn component_type_name(t: ComponentType) -> String {
    match t {
        ComponentType::Unknown => "unknown".into(),
        ComponentType::Uint32 => "uint".into(),
        ComponentType::Sint32 => "int".into(),
        ComponentType::Float32 => "float".into(),
        ComponentType::Other(v) => v.to_string(),
    }
}

/// The system value D3D's reflection reports: pixel-shader outputs such as `SV_Target` and
/// `SV_Depth` are stored with system value 0 and recognised by their semantic name.
pub fn effective_system_value(e: &SignatureElement) -> u32 {
    if e.system_value != 0 {
        return e.system_value;
    }
    let name = e.semantic_name.to_ascii_lowercase();
    match name.as_str() {
        "sv_target" => 64,
        "sv_depth" => 65,
        "sv_coverage" => 66,
        "sv_depthgreaterequal" => 67,
        "sv_depthlessequal" => 68,
        "sv_stencilref" => 69,
        "sv_innercoverage" => 70,
        _ => 0,
    }
}

/// The register column of an element without a register number (depth, coverage...).
fn special_register(e: &SignatureElement, is_output: bool) -> &'static str {
    match (effective_system_value(e), is_output) {
        (65, _) => "oDepth",
        (67, _) => "oDepthGE",
        (68, _) => "oDepthLE",
        (66, true) => "oMask",
        (66, false) => "vCoverage",
        (69, _) => "oStencilRef",
        (70, _) => "vInnerCoverage",
        (7, _) => "vPrim",
        _ => "N/A",
    }
}

/// Renders a signature as fxc's listing does: Name Index Mask Register SysValue Format Used.
/// For outputs the element's read/write byte is the mask of components never written, so
/// "Used" shows the declared components minus those.
pub fn render_signature(out: &mut String, sig: &Signature, is_output: bool) {
    let _ = writeln!(out, "Name                 Index   Mask Register SysValue  Format   Used");
    let _ = writeln!(out, "-------------------- ----- ------ -------- -------- ------- ------");
    for e in &sig.elements {
        let used = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
        let (mask, register, used) = if e.register == u32::MAX {
            (
                "N/A".to_string(),
                special_register(e, is_output).to_string(),
                if used != 0 { "YES" } else { "NO" }.to_string(),
            )
        } else {
            (format!("  {}", mask_chars(e.mask)), e.register.to_string(), format!("  {}", mask_chars(used)))
        };
        let _ = writeln!(
            out,
            "{:<20} {:>5} {:>6} {:>8} {:>8} {:>7} {:>6}",
            e.semantic_name,
            e.semantic_index,
            mask,
            register,
            system_value_name(effective_system_value(e)),
            component_type_name(e.component_type),
            used
        );
    }
    if sig.elements.is_empty() {
        out.push_str("(no elements)\n");
    }
    if sig.elements.iter().any(|e| e.stream != 0) {
        let streams: Vec<String> = sig
            .elements
            .iter()
            .map(|e| format!("{}{}: stream {}", e.semantic_name, e.semantic_index, e.stream))
            .collect();
        let _ = writeln!(out, "Streams: {}", streams.join(", "));
    }
}

fn render_reflection(out: &mut String, r: &Reflection) {
    let _ = writeln!(
        out,
        "\nReflection: target {}_{}_{}, creator \"{}\", compile flags {:#x}",
        r.target.prefix().unwrap_or("?"),
        r.target.major,
        r.target.minor,
        r.creator,
        r.compile_flags
    );
    if !r.constant_buffers.is_empty() {
        out.push_str("\nBuffer Definitions:\n");
        for cb in &r.constant_buffers {
            render_cbuffer(out, cb);
        }
    }
    if !r.bindings.is_empty() {
        out.push_str("\nResource Bindings:\n\n");
        render_bindings(out, &r.bindings);
    }
}

fn render_cbuffer(out: &mut String, cb: &ConstantBuffer) {
    let _ = writeln!(out, "\n{} {}\n{{\n", cb.kind.name(), cb.name);
    for v in &cb.variables {
        let mut decl = String::new();
        render_type_decl(&mut decl, &v.ty, &v.name, 1);
        let unused = if v.is_used() { "" } else { " [unused]" };
        let (head, last) = split_last_line(&decl);
        let _ = writeln!(out, "{head}{:<36} // Offset: {:>4} Size: {:>5}{unused}", last, v.offset, v.size);
        if let Some(d) = &v.default_value {
            let words: Vec<String> = d
                .chunks(4)
                .map(|w| {
                    let mut b = [0u8; 4];
                    b[..w.len()].copy_from_slice(w);
                    format!("{:#010x}", u32::from_le_bytes(b))
                })
                .collect();
            let _ = writeln!(out, "      = {{ {} }}", words.join(", "));
        }
    }
    let _ = writeln!(out, "\n}}  // size {} bytes", cb.size);
}

/// Splits text into everything up to and including its last newline, and the last line.
fn split_last_line(s: &str) -> (&str, &str) {
    match s.rfind('\n') {
        Some(i) => s.split_at(i + 1),
        None => ("", s),
    }
}

/// Writes `type name[elements];` for a variable, expanding struct members with their offsets.
fn render_type_decl(out: &mut String, ty: &Type, name: &str, indent: usize) {
    let pad = "  ".repeat(indent);
    let array = if ty.elements > 0 { format!("[{}]", ty.elements) } else { String::new() };
    if ty.members.is_empty() {
        let _ = write!(out, "{pad}{} {name}{array};", ty.hlsl_name());
        return;
    }
    let label = match &ty.name {
        Some(n) if !n.is_empty() => format!("struct {n}"),
        _ => "struct".to_string(),
    };
    let _ = writeln!(out, "{pad}{label}\n{pad}{{");
    for m in &ty.members {
        let mut inner = String::new();
        render_type_decl(&mut inner, &m.ty, &m.name, indent + 1);
        let (head, last) = split_last_line(&inner);
        let _ = writeln!(out, "{head}{:<36} // Offset: {:>4}", last, m.offset);
    }
    let _ = write!(out, "{pad}}} {name}{array};");
}

fn binding_format(b: &InputBinding) -> String {
    match b.input_type {
        InputType::Structured
        | InputType::UavRwStructured
        | InputType::UavAppendStructured
        | InputType::UavConsumeStructured
        | InputType::UavRwStructuredWithCounter => "struct".into(),
        InputType::ByteAddress | InputType::UavRwByteAddress => "byte".into(),
        InputType::Texture | InputType::UavRwTyped | InputType::Tbuffer if b.return_type.raw() != 0 => {
            let n = b.components();
            if n > 1 {
                format!("{}{n}", b.return_type.name())
            } else {
                b.return_type.name().to_string()
            }
        }
        _ => "NA".into(),
    }
}

fn binding_dimension(b: &InputBinding) -> &'static str {
    match b.input_type {
        InputType::Structured | InputType::ByteAddress => "r/o",
        InputType::UavRwStructured
        | InputType::UavRwByteAddress
        | InputType::UavAppendStructured
        | InputType::UavConsumeStructured
        | InputType::UavRwStructuredWithCounter => "r/w",
        _ => b.dimension.name(),
    }
}

/// Renders resource bindings as fxc's listing does: Name Type Format Dim HLSL Bind Count.
pub fn render_bindings(out: &mut String, bindings: &[InputBinding]) {
    let _ = writeln!(out, "Name                                 Type  Format         Dim      HLSL Bind  Count");
    let _ = writeln!(out, "------------------------------ ---------- ------- ----------- -------------- ------");
    for b in bindings {
        let mut bind = format!("{}{}", b.input_type.register_prefix(), b.bind_point);
        if let Some(space) = b.space {
            let _ = write!(bind, ",space{space}");
        }
        let count = if b.bind_count == 0 { "unbounded".to_string() } else { b.bind_count.to_string() };
        let _ = writeln!(
            out,
            "{:<30} {:>10} {:>7} {:>11} {:>14} {:>6}{}",
            b.name,
            b.input_type.name(),
            binding_format(b),
            binding_dimension(b),
            bind,
            count,
            match b.id {
                Some(id) => format!("  (ID {id})"),
                None => String::new(),
            }
        );
    }
}

fn render_root_signature(out: &mut String, r: &RootSignature) {
    let names = r.flag_names();
    let _ = writeln!(
        out,
        "\nRoot signature {}: {} parameters, {} static samplers, flags {:#x}{}",
        r.version.name(),
        r.parameters.len(),
        r.static_samplers.len(),
        r.flags,
        if names.is_empty() { String::new() } else { format!(" ({})", names.join(" | ")) }
    );
    let flags = |f: Option<u32>| f.map(|f| format!(", flags {f:#x}")).unwrap_or_default();
    for (i, p) in r.parameters.iter().enumerate() {
        let vis = p.visibility.name();
        match &p.kind {
            RootParameterKind::DescriptorTable(ranges) => {
                let _ = writeln!(out, "  [{i}] descriptor table, visibility {vis}, {} ranges", ranges.len());
                for range in ranges {
                    let letter = match range.range_type {
                        rts0::RangeType::Srv => "t",
                        rts0::RangeType::Uav => "u",
                        rts0::RangeType::Cbv => "b",
                        rts0::RangeType::Sampler => "s",
                        rts0::RangeType::Other(_) => "?",
                    };
                    let count = if range.count == u32::MAX { "unbounded".to_string() } else { range.count.to_string() };
                    let offset = if range.offset == u32::MAX { "append".to_string() } else { range.offset.to_string() };
                    let _ = writeln!(
                        out,
                        "        {} {letter}{} space {}, count {count}, offset {offset}{}",
                        range.range_type.name(),
                        range.base_register,
                        range.space,
                        flags(range.flags)
                    );
                }
            }
            RootParameterKind::Constants { register, space, count } => {
                let _ = writeln!(
                    out,
                    "  [{i}] 32-bit constants b{register} space {space}, {count} values, visibility {vis}"
                );
            }
            RootParameterKind::Cbv(d) => {
                let _ = writeln!(
                    out,
                    "  [{i}] root CBV b{} space {}, visibility {vis}{}",
                    d.register,
                    d.space,
                    flags(d.flags)
                );
            }
            RootParameterKind::Srv(d) => {
                let _ = writeln!(
                    out,
                    "  [{i}] root SRV t{} space {}, visibility {vis}{}",
                    d.register,
                    d.space,
                    flags(d.flags)
                );
            }
            RootParameterKind::Uav(d) => {
                let _ = writeln!(
                    out,
                    "  [{i}] root UAV u{} space {}, visibility {vis}{}",
                    d.register,
                    d.space,
                    flags(d.flags)
                );
            }
        }
    }
    for s in &r.static_samplers {
        let _ = writeln!(
            out,
            "  static sampler s{} space {}, visibility {}: filter {:#x}, address {}/{}/{}, mip LOD bias {:?}, max anisotropy {}, comparison {}, border {}, LOD {:?}..{:?}{}",
            s.register,
            s.space,
            s.visibility.name(),
            s.filter,
            s.address[0],
            s.address[1],
            s.address[2],
            s.mip_lod_bias,
            s.max_anisotropy,
            s.comparison,
            s.border_color,
            s.min_lod,
            s.max_lod,
            flags(s.flags)
        );
    }
}
