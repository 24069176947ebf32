//! Effect-file parser: TOML (with the position of every key and value) to [`Effect`].

mod render_states;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::layout::{self, HlslType, MatrixPacking};
use super::pattern::{AxisLookup, Pattern};
use super::*;
use crate::diag::Diagnostic;
use crate::vertex::VertexFormat;

type R<T> = Result<T, Diagnostic>;
type Key<'i> = Spanned<Cow<'i, str>>;
type Val<'i> = Spanned<DeValue<'i>>;

struct Ctx<'s> {
    path: &'s Path,
    src: &'s str,
}

impl Ctx<'_> {
    fn err(&self, span: &Span, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::span(self.path, self.src, span, msg).with_kind(crate::diag::DiagnosticKind::Syntax)
    }
}

/// Entries of a table in document order.
fn entries<'a, 'i>(t: &'a DeTable<'i>) -> Vec<(&'a Key<'i>, &'a Val<'i>)> {
    let mut v: Vec<_> = t.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

fn get<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<(&'a Key<'i>, &'a Val<'i>)> {
    t.iter().find(|(k, _)| k.get_ref().as_ref() == key)
}

fn check_keys(cx: &Ctx<'_>, t: &DeTable<'_>, what: &str, allowed: &[&str]) -> R<()> {
    for (k, _) in entries(t) {
        if !allowed.contains(&k.get_ref().as_ref()) {
            return Err(cx.err(
                &k.span(),
                format!("unknown key `{}` in {what} (expected one of: {})", k.get_ref(), allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn as_str<'a>(cx: &Ctx<'_>, key: &str, v: &'a Val<'_>) -> R<&'a str> {
    match v.get_ref() {
        DeValue::String(s) => Ok(s.as_ref()),
        other => Err(cx.err(&v.span(), format!("`{key}` must be a string, found {}", type_name(other)))),
    }
}

fn as_table<'a, 'i>(cx: &Ctx<'_>, key: &str, v: &'a Val<'i>) -> R<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Ok(t),
        other => Err(cx.err(&v.span(), format!("`{key}` must be a table, found {}", type_name(other)))),
    }
}

fn as_array<'a, 'i>(cx: &Ctx<'_>, key: &str, v: &'a Val<'i>) -> R<&'a [Val<'i>]> {
    match v.get_ref() {
        DeValue::Array(a) => Ok(a.as_ref()),
        other => Err(cx.err(&v.span(), format!("`{key}` must be an array, found {}", type_name(other)))),
    }
}

fn opt_str(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<String>> {
    get(t, key).map(|(_, v)| as_str(cx, key, v).map(str::to_string)).transpose()
}

fn opt_u32(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<u32>> {
    get(t, key).map(|(_, v)| as_u32(cx, key, v)).transpose()
}

fn as_u32(cx: &Ctx<'_>, key: &str, v: &Val<'_>) -> R<u32> {
    match v.get_ref() {
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let digits = digits.strip_prefix('+').unwrap_or(&digits);
            let digits = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0o"))
                .or_else(|| digits.strip_prefix("0b"))
                .unwrap_or(digits);
            u32::from_str_radix(digits, i.radix())
                .map_err(|_| cx.err(&v.span(), format!("`{key}` must be a non-negative integer")))
        }
        other => Err(cx.err(&v.span(), format!("`{key}` must be an integer, found {}", type_name(other)))),
    }
}

fn require<'a, 'i>(cx: &Ctx<'_>, t: &'a DeTable<'i>, key: &str, at: &Span, what: &str) -> R<&'a Val<'i>> {
    get(t, key).map(|(_, v)| v).ok_or_else(|| cx.err(at, format!("{what} needs a `{key}` key")))
}

/// A Rust identifier in snake case (lower-case letters, digits, `_`; not a keyword).
fn check_ident(cx: &Ctx<'_>, name: &str, span: &Span, what: &str) -> R<()> {
    let ok = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name != "_"
        && !is_keyword(name);
    if ok {
        Ok(())
    } else {
        Err(cx
            .err(span, format!("{what} `{name}` must be a snake_case Rust identifier (a-z, 0-9, _) and not a keyword")))
    }
}

/// A name that becomes a Rust type or variant in PascalCase (`depth_only` → `DepthOnly`): it
/// must not become the keyword `Self` (`self_`), nor the same name as an earlier one of its kind
/// (`a_b` and `a__b` are both `AB`). `seen` holds the earlier names' PascalCase and spans.
fn check_pascal(cx: &Ctx<'_>, name: &str, span: &Span, what: &str, seen: &mut Vec<(String, Span)>) -> R<()> {
    let p = pascal_case(name);
    if p == "Self" {
        return Err(cx.err(span, format!("{what} `{name}` would become the Rust name `Self`, a keyword; rename it")));
    }
    if let Some((_, other)) = seen.iter().find(|(q, _)| *q == p) {
        let (line, _) = crate::diag::line_column(cx.src, other.start);
        return Err(cx.err(span, format!("{what} `{name}` has the same Rust name `{p}` as the {what} on line {line}")));
    }
    seen.push((p, span.clone()));
    Ok(())
}

/// An HLSL-style identifier (letters, digits, `_`).
fn check_hlsl_ident(cx: &Ctx<'_>, name: &str, span: &Span, what: &str) -> R<()> {
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(cx.err(span, format!("{what} `{name}` must be an identifier (letters, digits, _)")))
    }
}

struct AxesView<'a>(&'a [Axis]);

impl AxisLookup for AxesView<'_> {
    fn axis_index(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|a| a.name == name)
    }
    fn value_names(&self, axis: usize) -> Vec<String> {
        self.0[axis].value_names()
    }
    fn is_bool(&self, axis: usize) -> bool {
        self.0[axis].kind == AxisKind::Bool
    }
}

pub(super) fn parse(path: &Path, source: String) -> R<Effect> {
    let cx = Ctx { path, src: &source };
    let root = DeTable::parse(&source).map_err(|e| {
        let at = e.span().map(|s| s.start).unwrap_or(0);
        Diagnostic::at(path, &source, at, format!("TOML syntax: {}", e.message().trim()))
            .with_kind(crate::diag::DiagnosticKind::Syntax)
    })?;
    let root_span = root.span();
    let root = root.get_ref();
    check_keys(
        &cx,
        root,
        "the effect file",
        &[
            &[
                "effect",
                "axes",
                "permutations",
                "layouts",
                "cbuffers",
                "resources",
                "vertex_formats",
                "instance_data",
                "view_formats",
                "texture2dms_views",
                "passes",
                "techniques",
            ][..],
            &render_states::ROOT_KEYS,
        ]
        .concat(),
    )?;

    // [effect]
    let Some((_, effect_v)) = get(root, "effect") else {
        return Err(cx.err(&(0..0), "the effect file needs an [effect] table with a `name`"));
    };
    let effect_t = as_table(&cx, "effect", effect_v)?;
    check_keys(&cx, effect_t, "[effect]", &["name", "module", "description", "shader_dir", "verify_checksum"])?;
    let name_v = require(&cx, effect_t, "name", &effect_v.span(), "[effect]")?;
    let name = as_str(&cx, "name", name_v)?.to_string();
    check_hlsl_ident(&cx, &name, &name_v.span(), "effect name")?;
    let module = match get(effect_t, "module") {
        Some((_, v)) => {
            let m = as_str(&cx, "module", v)?.to_string();
            check_ident(&cx, &m, &v.span(), "module name")?;
            m
        }
        None => snake_case(&name),
    };
    let description = opt_str(&cx, effect_t, "description")?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let shader_dir = match opt_str(&cx, effect_t, "shader_dir")? {
        Some(d) => base.join(d),
        None => base,
    };
    let shader_dir_span = get(effect_t, "shader_dir").map(|(_, v)| v.span());
    let verify_checksum = render_states::opt_bool(&cx, effect_t, "verify_checksum")?.is_none_or(|(b, _)| b);

    // [axes]
    let mut axes = Vec::new();
    if let Some((_, v)) = get(root, "axes") {
        for (k, v) in entries(as_table(&cx, "axes", v)?) {
            axes.push(parse_axis(&cx, k, v)?);
        }
    }
    let mut pascal_axes: Vec<(String, Span)> = Vec::new();
    for a in &axes {
        let p = pascal_case(&a.name);
        if p == "Self" {
            return Err(cx.err(&a.span, format!("axis `{}` would become the Rust type `Self`, a keyword", a.name)));
        }
        if let Some((_, other)) = pascal_axes.iter().find(|(q, _)| *q == p) {
            let (line, _) = crate::diag::line_column(&source, other.start);
            return Err(cx.err(
                &a.span,
                format!("axis `{}` has the same Rust type name `{p}` as the axis on line {line}", a.name),
            ));
        }
        pascal_axes.push((p, a.span.clone()));
    }
    let view = AxesView(&axes);

    // [permutations]
    let mut excludes = Vec::new();
    if let Some((_, v)) = get(root, "permutations") {
        let t = as_table(&cx, "permutations", v)?;
        check_keys(&cx, t, "[permutations]", &["exclude"])?;
        if let Some((_, ex)) = get(t, "exclude") {
            for c in as_array(&cx, "exclude", ex)? {
                excludes.push(parse_condition(&cx, &axes, "exclude", c)?);
            }
        }
    }
    let default: Vec<usize> = axes.iter().map(|a| a.default).collect();
    if let Some(c) = excludes.iter().find(|c| c.matches(&default)) {
        return Err(cx.err(
            &c.span,
            "this exclusion removes the default permutation (every axis at its `default`); change a default",
        ));
    }

    // [layouts]
    let mut layouts: Vec<Layout> = Vec::new();
    if let Some((_, v)) = get(root, "layouts") {
        for (k, v) in entries(as_table(&cx, "layouts", v)?) {
            let name = k.get_ref().to_string();
            check_hlsl_ident(&cx, &name, &k.span(), "layout name")?;
            let t = as_table(&cx, &name, v)?;
            check_keys(&cx, t, &format!("[layouts.{name}]"), &["fields", "doc"])?;
            let fields = require(&cx, t, "fields", &k.span(), &format!("[layouts.{name}]"))?;
            let mut l = parse_fields(&cx, &name, &k.span(), fields)?;
            l.doc = opt_str(&cx, t, "doc")?;
            layouts.push(l);
        }
    }

    // [cbuffers]
    let mut cbuffers: Vec<CbufferDecl> = Vec::new();
    if let Some((_, v)) = get(root, "cbuffers") {
        for (k, v) in entries(as_table(&cx, "cbuffers", v)?) {
            let name = k.get_ref().to_string();
            check_hlsl_ident(&cx, &name, &k.span(), "constant buffer name")?;
            let what = format!("[cbuffers.{name}]");
            let t = as_table(&cx, &name, v)?;
            check_keys(
                &cx,
                t,
                &what,
                &["register", "space", "layout", "fields", "doc", "stages", "placed", "allow_larger"],
            )?;
            let reg_v = require(&cx, t, "register", &k.span(), &what)?;
            let (class, slot) = parse_register(&cx, as_str(&cx, "register", reg_v)?, &reg_v.span())?;
            if class != 'b' {
                return Err(cx.err(&reg_v.span(), format!("a constant buffer's register is `b#`, not `{class}{slot}`")));
            }
            if slot >= dxbc_wgsl::BindingClass::ConstantBuffer.slots() {
                return Err(cx.err(&reg_v.span(), format!("b{slot} is outside b0–b13")));
            }
            let space = opt_u32(&cx, t, "space")?.unwrap_or(0);
            let layout = match (get(t, "layout"), get(t, "fields")) {
                (Some((lk, _)), Some(_)) => {
                    return Err(cx.err(&lk.span(), format!("{what} has both `layout` and `fields`; use one")));
                }
                (Some((_, lv)), None) => {
                    let lname = as_str(&cx, "layout", lv)?;
                    layouts.iter().position(|l| l.name == lname).ok_or_else(|| {
                        let known: Vec<_> = layouts.iter().map(|l| l.name.as_str()).collect();
                        cx.err(
                            &lv.span(),
                            format!(
                                "no layout named `{lname}` (declared layouts: {})",
                                if known.is_empty() { "none".to_string() } else { known.join(", ") }
                            ),
                        )
                    })?
                }
                (None, Some((_, fv))) => {
                    if let Some(l) = layouts.iter().find(|l| l.name == name) {
                        let (line, _) = crate::diag::line_column(&source, l.span.start);
                        return Err(cx.err(
                            &k.span(),
                            format!("inline layout `{name}` has the same name as the layout on line {line}"),
                        ));
                    }
                    let mut l = parse_fields(&cx, &name, &k.span(), fv)?;
                    l.doc = opt_str(&cx, t, "doc")?;
                    layouts.push(l);
                    layouts.len() - 1
                }
                (None, None) => {
                    // No layout in the file: it comes from the shaders' reflection (RDEF), named
                    // after the buffer.
                    if let Some(l) = layouts.iter().find(|l| l.name == name) {
                        let (line, _) = crate::diag::line_column(&source, l.span.start);
                        return Err(cx.err(
                            &k.span(),
                            format!("constant buffer `{name}` has the same name as the layout on line {line}"),
                        ));
                    }
                    layouts.push(Layout {
                        name: name.clone(),
                        span: k.span(),
                        doc: opt_str(&cx, t, "doc")?,
                        fields: Vec::new(),
                        field_spans: Vec::new(),
                        field_docs: Vec::new(),
                        from_reflection: true,
                    });
                    layouts.len() - 1
                }
            };
            let stages = parse_stages(&cx, t)?;
            let mut placed = Vec::new();
            if let Some((pk, pv)) = get(t, "placed") {
                if !layouts[layout].from_reflection {
                    return Err(cx.err(
                        &pk.span(),
                        format!(
                            "{what}: `placed` applies to layouts taken from the reflection; a declared field takes \
                             `offset`"
                        ),
                    ));
                }
                for (vk, vv) in entries(as_table(&cx, "placed", pv)?) {
                    let text = as_str(&cx, vk.get_ref(), vv)?;
                    let offset = layout::parse_offset(text).map_err(|m| cx.err(&vv.span(), m))?;
                    placed.push((vk.get_ref().to_string(), offset, vk.span()));
                }
            }
            let allow_larger = match render_states::opt_bool(&cx, t, "allow_larger")? {
                Some((_, span)) if layouts[layout].from_reflection => {
                    return Err(cx.err(
                        &span,
                        format!(
                            "{what}: `allow_larger` applies to declared layouts (`layout` or `fields`); a layout taken \
                             from the reflection is the shaders' own"
                        ),
                    ));
                }
                Some((b, _)) => b,
                None => false,
            };
            let decl = CbufferDecl {
                name,
                span: k.span(),
                slot,
                space,
                register_span: reg_v.span(),
                stages,
                layout,
                placed,
                allow_larger,
            };
            if let Some(other) = cbuffers
                .iter()
                .find(|c| c.slot == decl.slot && c.space == decl.space && stages_overlap(&c.stages, &decl.stages))
            {
                return Err(cx.err(
                    &decl.register_span,
                    format!(
                        "b{} is already bound to constant buffer `{}` for the same stages (use `stages` to bind \
                         different buffers per stage)",
                        decl.slot, other.name
                    ),
                ));
            }
            cbuffers.push(decl);
        }
    }

    // [resources]
    let mut resources: Vec<ResourceDecl> = Vec::new();
    if let Some((_, v)) = get(root, "resources") {
        for (k, v) in entries(as_table(&cx, "resources", v)?) {
            let (class, slot) = parse_register(&cx, k.get_ref(), &k.span())?;
            let class =
                match class {
                    't' => ResourceClass::Srv,
                    's' => ResourceClass::Sampler,
                    'u' => ResourceClass::Uav,
                    _ => return Err(cx.err(
                        &k.span(),
                        "constant buffers are declared in [cbuffers.Name]; [resources] names t#, s# and u# registers",
                    )),
                };
            // A string, a table, or an array of tables (one name per stage or space).
            let items: Vec<&Val<'_>> = match v.get_ref() {
                DeValue::Array(a) => {
                    if a.is_empty() {
                        return Err(cx.err(&v.span(), "an empty array names nothing"));
                    }
                    a.iter().collect()
                }
                _ => vec![v],
            };
            for v in items {
                let (name, name_span, stages, doc, space) = match v.get_ref() {
                    DeValue::String(s) => (s.to_string(), v.span(), None, None, 0),
                    DeValue::Table(t) => {
                        check_keys(
                            &cx,
                            t,
                            &format!("[resources] {}", k.get_ref()),
                            &["name", "stages", "doc", "space"],
                        )?;
                        let nv = require(&cx, t, "name", &k.span(), &format!("resource {}", k.get_ref()))?;
                        (
                            as_str(&cx, "name", nv)?.to_string(),
                            nv.span(),
                            parse_stages(&cx, t)?,
                            opt_str(&cx, t, "doc")?,
                            opt_u32(&cx, t, "space")?.unwrap_or(0),
                        )
                    }
                    other => {
                        return Err(cx.err(
                            &v.span(),
                            format!(
                            "a resource is named by a string, a table {{ name = ..., stages = [...] }} or an array of \
                             such tables, found {}",
                            type_name(other)
                        ),
                        ))
                    }
                };
                check_ident(&cx, &name, &name_span, "resource name")?;
                // `t0`, `"t0 "`, `T0` and `t00` are one register: named once per stage.
                if let Some(prev) = resources.iter().find(|r| {
                    r.class == class && r.slot == slot && r.space == space && stages_overlap(&r.stages, &stages)
                }) {
                    let (line, _) = crate::diag::line_column(&source, prev.span.start);
                    return Err(cx.err(
                        &k.span(),
                        format!(
                            "{}{slot} is already named `{}` on line {line} for the same stages (use `stages` to name it \
                             per stage)",
                            class.letter(),
                            prev.name
                        ),
                    ));
                }
                resources.push(ResourceDecl { class, slot, space, name, stages, doc, span: k.span() });
            }
        }
    }
    // Field names of the generated `Resources` struct must be unique.
    {
        let mut seen: Vec<(String, Span)> = Vec::new();
        for (n, span) in cbuffers
            .iter()
            .map(|c| (snake_case(&c.name), c.span.clone()))
            .chain(resources.iter().map(|r| (r.name.clone(), r.span.clone())))
        {
            if let Some((_, first)) = seen.iter().find(|(s, _)| *s == n) {
                let (line, _) = crate::diag::line_column(&source, first.start);
                return Err(cx.err(
                    &span,
                    format!("`{n}` already names another resource (line {line}); each needs its own Rust field name"),
                ));
            }
            seen.push((n, span));
        }
    }

    // [vertex_formats]
    let mut vertex_formats = Vec::new();
    if let Some((_, v)) = get(root, "vertex_formats") {
        for (k, v) in entries(as_table(&cx, "vertex_formats", v)?) {
            let key = k.get_ref().as_ref();
            let digits = key.len() - key.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            let (semantic, index) = key.split_at(key.len() - digits);
            if semantic.is_empty() {
                return Err(cx.err(&k.span(), format!("`{key}` is not a semantic such as COLOR or TEXCOORD1")));
            }
            let index = if index.is_empty() { 0 } else { index.parse().unwrap_or(u32::MAX) };
            let fname = as_str(&cx, key, v)?;
            let format = VertexFormat::by_name(fname).ok_or_else(|| {
                cx.err(
                    &v.span(),
                    format!(
                        "unknown vertex format `{fname}` (WebGPU names: {}; or DXGI names such as R32G32B32_FLOAT)",
                        VertexFormat::names()
                    ),
                )
            })?;
            vertex_formats.push(VertexFormatOverride { semantic: semantic.to_string(), index, format, span: k.span() });
        }
    }

    // [instance_data]
    let mut instance_data: Vec<InstanceDataDecl> = Vec::new();
    if let Some((_, v)) = get(root, "instance_data") {
        for (k, v) in entries(as_table(&cx, "instance_data", v)?) {
            let key = k.get_ref().as_ref();
            let digits = key.len() - key.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            let (semantic, index) = key.split_at(key.len() - digits);
            if semantic.is_empty() {
                return Err(cx.err(&k.span(), format!("`{key}` is not a semantic such as COLOR or TEXCOORD1")));
            }
            let index = if index.is_empty() { 0 } else { index.parse().unwrap_or(u32::MAX) };
            let step_rate = match v.get_ref() {
                DeValue::Integer(_) => as_u32(&cx, key, v)?,
                other => {
                    return Err(cx.err(
                        &v.span(),
                        format!(
                            "`{key}`: an instance element's value is its step rate, a non-negative integer (D3D's \
                             InstanceDataStepRate; 1 = one element per instance), found {}",
                            type_name(other)
                        ),
                    ))
                }
            };
            if let Some(prev) =
                instance_data.iter().find(|d| d.semantic.eq_ignore_ascii_case(semantic) && d.index == index)
            {
                let (line, _) = crate::diag::line_column(&source, prev.span.start);
                return Err(cx.err(&k.span(), format!("`{key}` is already per-instance data on line {line}")));
            }
            instance_data.push(InstanceDataDecl { semantic: semantic.to_string(), index, step_rate, span: k.span() });
        }
    }

    // [view_formats]
    let mut view_formats: Vec<ViewFormatDecl> = Vec::new();
    if let Some((_, v)) = get(root, "view_formats") {
        for (k, v) in entries(as_table(&cx, "view_formats", v)?) {
            let (reg, key_space) = register_and_space(&cx, k)?;
            let (class, slot) = parse_register(&cx, reg, &k.span())?;
            let class = match class {
                't' => ResourceClass::Srv,
                'u' => ResourceClass::Uav,
                _ => {
                    return Err(cx.err(
                        &k.span(),
                        "[view_formats] gives the formats of typed Buffer SRVs (t#) and typed UAVs (u#)",
                    ))
                }
            };
            let (fv, stages, space) = match v.get_ref() {
                DeValue::String(_) => (v, None, key_space.unwrap_or(0)),
                DeValue::Table(t) => {
                    check_keys(&cx, t, &format!("[view_formats] {}", k.get_ref()), &["format", "stages", "space"])?;
                    let fv = require(&cx, t, "format", &k.span(), &format!("view format {}", k.get_ref()))?;
                    let space = opt_u32(&cx, t, "space")?;
                    if let (Some(_), Some(_)) = (space, key_space) {
                        return Err(cx.err(&k.span(), "the space is given twice: in the key and in `space`"));
                    }
                    (fv, parse_stages(&cx, t)?, space.or(key_space).unwrap_or(0))
                }
                other => {
                    return Err(cx.err(
                        &v.span(),
                        format!(
                            "a view format is a string (\"rgba8unorm\") or a table {{ format = ..., stages = [...] }}, \
                             found {}",
                            type_name(other)
                        ),
                    ))
                }
            };
            let fname = as_str(&cx, "format", fv)?;
            let format = dxbc_wgsl::TexelFormat::parse(fname.trim()).ok_or_else(|| {
                cx.err(
                    &fv.span(),
                    format!(
                        "unknown texel format `{fname}` (WGSL storage formats such as r32float, rg32uint, rgba8unorm, \
                         rgba16float, rgba32float, or DXGI names such as R8G8B8A8_UNORM)"
                    ),
                )
            })?;
            if class == ResourceClass::Uav && format == dxbc_wgsl::TexelFormat::Bgra8Unorm {
                return Err(cx.err(
                    &fv.span(),
                    format!(
                        "`{fname}`: WebGPU allows a bgra8unorm storage texture only with the optional \
                         `bgra8unorm-storage` feature, which the generated code does not request; bind an rgba8unorm \
                         view instead"
                    ),
                ));
            }
            if class == ResourceClass::Srv && !format.is_32bit() {
                return Err(cx.err(
                    &fv.span(),
                    format!(
                        "`{fname}`: typed Buffer SRVs (t#) support 32-bit-per-component formats only (r32float, \
                         rg32uint, rgba32float, ...)"
                    ),
                ));
            }
            if let Some(prev) = view_formats
                .iter()
                .find(|p| p.class == class && p.slot == slot && p.space == space && stages_overlap(&p.stages, &stages))
            {
                let (line, _) = crate::diag::line_column(&source, prev.span.start);
                return Err(cx.err(&k.span(), format!("the format of {} is already given on line {line}", k.get_ref())));
            }
            view_formats.push(ViewFormatDecl {
                class,
                slot,
                space,
                format: format.wgsl_name().to_string(),
                stages,
                span: k.span(),
            });
        }
    }

    // [texture2dms_views]
    let texture2dms_views = parse_texture2dms_views(&cx, root, &source)?;

    // [blend_states], [depth_stencil_states], [rasterizer_states]
    let named_states = render_states::parse_named(&cx, root)?;

    // [passes]
    let mut passes = Vec::new();
    let mut pascal_passes: Vec<(String, Span)> = Vec::new();
    if let Some((_, v)) = get(root, "passes") {
        for (k, v) in entries(as_table(&cx, "passes", v)?) {
            let name = k.get_ref().to_string();
            check_ident(&cx, &name, &k.span(), "pass name")?;
            check_pascal(&cx, &name, &k.span(), "pass", &mut pascal_passes)?;
            let what = format!("[passes.{name}]");
            let t = as_table(&cx, &name, v)?;
            check_keys(
                &cx,
                t,
                &what,
                &[&["vertex", "geometry", "pixel", "compute", "stream_output"][..], &render_states::PASS_KEYS].concat(),
            )?;
            if let Some((ck, cv)) = get(t, "compute") {
                if let Some((other, _)) = entries(t).into_iter().find(|(key, _)| key.get_ref().as_ref() != "compute") {
                    return Err(cx.err(
                        &other.span(),
                        format!(
                            "{what} is a compute pass: `{}` applies to render passes (a pass has either `vertex`, \
                             `geometry` and `pixel`, or `compute`)",
                            other.get_ref()
                        ),
                    ));
                }
                let compute = parse_stage(&cx, &view, &axes, Stage::Compute, ck, cv)?;
                passes.push(Pass {
                    name,
                    span: k.span(),
                    vertex: compute,
                    geometry: None,
                    pixel: None,
                    states: states::PassStates::default(),
                    stream_output: None,
                });
                continue;
            }
            let Some((vk, vv)) = get(t, "vertex") else {
                return Err(cx.err(
                    &k.span(),
                    format!("{what} needs a `vertex` shader (or a `compute` shader, for a compute pass)"),
                ));
            };
            let vertex = parse_stage(&cx, &view, &axes, Stage::Vertex, vk, vv)?;
            let stream_output =
                get(t, "stream_output").map(|(sk, sv)| parse_stream_output(&cx, &name, sk, sv)).transpose()?;
            // A pass that streams out without a geometry shader has an implicit one: the vertex
            // shader's pass-through module, fed by the draw's topology.
            let geometry_rules = match get(t, "geometry") {
                Some((gk, gv)) => Some((parse_stage(&cx, &view, &axes, Stage::Geometry, gk, gv)?, false)),
                None if stream_output.is_some() => {
                    Some((StageRules { stage: Stage::Geometry, ..vertex.clone() }, true))
                }
                None => None,
            };
            let geometry = match geometry_rules {
                Some((rules, implicit)) => {
                    let topology = get(t, "topology");
                    Some(GeometryStage {
                        rules,
                        topology: match topology {
                            Some((_, v)) => render_states::parse_draw_topology(&cx, v)?,
                            None => dxbc_wgsl::geometry::Topology::TriangleList,
                        },
                        topology_span: topology.map(|(_, v)| v.span()),
                        implicit,
                    })
                }
                None => None,
            };
            let pixel =
                get(t, "pixel").map(|(pk, pv)| parse_stage(&cx, &view, &axes, Stage::Pixel, pk, pv)).transpose()?;
            let states = render_states::parse_pass(&cx, &named_states, &name, t, geometry.is_some())?;
            passes.push(Pass { name, span: k.span(), vertex, geometry, pixel, states, stream_output });
        }
    }
    if passes.is_empty() {
        return Err(
            cx.err(&root_span, "the effect file declares no pass: add [passes.main] with `vertex` and `pixel` shaders")
        );
    }

    // [techniques]
    let mut techniques: Vec<Technique> = Vec::new();
    let mut pascal_techniques: Vec<(String, Span)> = Vec::new();
    if let Some((_, v)) = get(root, "techniques") {
        for (k, v) in entries(as_table(&cx, "techniques", v)?) {
            let name = k.get_ref().to_string();
            check_ident(&cx, &name, &k.span(), "technique name")?;
            check_pascal(&cx, &name, &k.span(), "technique", &mut pascal_techniques)?;
            let what = format!("[techniques.{name}]");
            let t = as_table(&cx, &name, v)?;
            check_keys(&cx, t, &what, &["passes", "doc"])?;
            let list = require(&cx, t, "passes", &k.span(), &what)?;
            let mut indices = Vec::new();
            for pv in as_array(&cx, "passes", list)? {
                let pname = as_str(&cx, "passes", pv)?;
                let Some(i) = passes.iter().position(|p| p.name == pname) else {
                    let known: Vec<&str> = passes.iter().map(|p| p.name.as_str()).collect();
                    return Err(
                        cx.err(&pv.span(), format!("{what}: no pass named `{pname}` (passes: {})", known.join(", ")))
                    );
                };
                if indices.contains(&i) {
                    return Err(cx.err(&pv.span(), format!("{what}: pass `{pname}` is listed twice")));
                }
                indices.push(i);
            }
            if indices.is_empty() {
                return Err(cx.err(&list.span(), format!("{what}: `passes` lists no pass")));
            }
            techniques.push(Technique { name, span: k.span(), doc: opt_str(&cx, t, "doc")?, passes: indices });
        }
    }

    let shader_dir = normalize(&shader_dir);
    Ok(Effect {
        path: path.to_path_buf(),
        name,
        name_span: name_v.span(),
        module,
        description,
        shader_dir,
        shader_dir_span,
        verify_checksum,
        axes,
        excludes,
        layouts,
        cbuffers,
        resources,
        vertex_formats,
        instance_data,
        view_formats,
        texture2dms_views,
        passes,
        techniques,
        source,
    })
}

/// A view key: `u1`, or `"u1,space2"` (a register of another space, when space 0's is listed
/// too): the register text and the key's space.
fn register_and_space<'k>(cx: &Ctx<'_>, k: &'k Key<'_>) -> R<(&'k str, Option<u32>)> {
    Ok(match k.get_ref().split_once(',') {
        None => (k.get_ref().as_ref(), None),
        Some((r, sp)) => {
            let n = sp
                .trim()
                .strip_prefix("space")
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| {
                    cx.err(&k.span(), format!("`{}`: expected a register and a space, as \"u1,space2\"", k.get_ref()))
                })?;
            (r, Some(n))
        }
    })
}

/// `[texture2dms_views]`: `t0 = "single_sampled"`, `t1 = { view = "multisampled", stages = [...],
/// space = 1 }`, `"t0,space2" = ...`.
fn parse_texture2dms_views(cx: &Ctx<'_>, root: &DeTable<'_>, source: &str) -> R<Vec<Texture2dmsViewDecl>> {
    let mut out: Vec<Texture2dmsViewDecl> = Vec::new();
    let Some((_, v)) = get(root, "texture2dms_views") else { return Ok(out) };
    for (k, v) in entries(as_table(cx, "texture2dms_views", v)?) {
        let (reg, key_space) = register_and_space(cx, k)?;
        let (class, slot) = parse_register(cx, reg, &k.span())?;
        if class != 't' {
            return Err(cx.err(&k.span(), "[texture2dms_views] says what Texture2DMS SRVs (t#) view"));
        }
        let (vv, stages, space) = match v.get_ref() {
            DeValue::String(_) => (v, None, key_space.unwrap_or(0)),
            DeValue::Table(t) => {
                check_keys(cx, t, &format!("[texture2dms_views] {}", k.get_ref()), &["view", "stages", "space"])?;
                let vv = require(cx, t, "view", &k.span(), &format!("Texture2DMS view {}", k.get_ref()))?;
                let space = opt_u32(cx, t, "space")?;
                if let (Some(_), Some(_)) = (space, key_space) {
                    return Err(cx.err(&k.span(), "the space is given twice: in the key and in `space`"));
                }
                (vv, parse_stages(cx, t)?, space.or(key_space).unwrap_or(0))
            }
            other => {
                return Err(cx.err(
                    &v.span(),
                    format!(
                    "a Texture2DMS view is a string (\"single_sampled\") or a table {{ view = ..., stages = [...] }}, \
                         found {}",
                    type_name(other)
                ),
                ))
            }
        };
        let name = as_str(cx, "view", vv)?;
        let view = dxbc_wgsl::Texture2dmsView::parse(name.trim()).ok_or_else(|| {
            cx.err(
                &vv.span(),
                format!(
                    "unknown Texture2DMS view `{name}` (single_sampled: a single-sampled 2D texture; multisampled: a \
                     multisampled one)"
                ),
            )
        })?;
        if let Some(prev) =
            out.iter().find(|p| p.slot == slot && p.space == space && stages_overlap(&p.stages, &stages))
        {
            let (line, _) = crate::diag::line_column(source, prev.span.start);
            return Err(cx.err(&k.span(), format!("the view of {} is already given on line {line}", k.get_ref())));
        }
        out.push(Texture2dmsViewDecl { slot, space, view, stages, span: k.span() });
    }
    Ok(out)
}

/// Removes `.` components (keeps `..`, which may cross symlinks).
/// Reads `[passes.NAME.stream_output]`: `entries` (tables of `stream`, `semantic`, `index`,
/// `start_component`, `component_count`, `slot`, or a gap: `gap` components of a `slot` and
/// `stream`), `strides` (bytes per vertex per slot) and `rasterized_stream` (0-3 or `"none"`).
/// What needs the shader's output signature is checked when the effect is compiled.
fn parse_stream_output(cx: &Ctx<'_>, pass: &str, k: &Key<'_>, v: &Val<'_>) -> R<StreamOutputDecl> {
    let what = format!("[passes.{pass}.stream_output]");
    let t = as_table(cx, "stream_output", v)?;
    check_keys(cx, t, &what, &["entries", "strides", "rasterized_stream"])?;
    let Some((_, ev)) = get(t, "entries") else {
        return Err(cx.err(&k.span(), format!("{what} needs `entries`: the declaration's entries, in order")));
    };
    let list = as_array(cx, "entries", ev)?;
    if list.is_empty() {
        return Err(cx.err(&ev.span(), format!("{what}: `entries` is empty (D3D needs 1 to 512)")));
    }
    if list.len() > dxbc_wgsl::geometry::SO_MAX_ENTRIES {
        return Err(cx.err(
            &ev.span(),
            format!("{what}: {} entries (D3D allows {})", list.len(), dxbc_wgsl::geometry::SO_MAX_ENTRIES),
        ));
    }
    let mut entries = Vec::with_capacity(list.len());
    let mut entry_spans = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let ewhat = format!("entry {i} of {what}");
        let et = as_table(cx, &format!("entries[{i}]"), e)?;
        check_keys(
            cx,
            et,
            &ewhat,
            &["stream", "semantic", "index", "start_component", "component_count", "slot", "gap"],
        )?;
        let small = |key: &str, max: u32| -> R<Option<u32>> {
            match get(et, key) {
                Some((_, v)) => {
                    let n = as_u32(cx, key, v)?;
                    if n > max {
                        return Err(cx.err(&v.span(), format!("`{key}` is {n}; {ewhat} allows 0-{max}")));
                    }
                    Ok(Some(n))
                }
                None => Ok(None),
            }
        };
        let stream = small("stream", 3)?.unwrap_or(0);
        let output_slot = small("slot", 3)?.unwrap_or(0);
        let entry = match (get(et, "semantic"), get(et, "gap")) {
            (Some((sk, _)), Some(_)) => {
                return Err(cx.err(&sk.span(), format!("{ewhat} has both `semantic` and `gap`: give one")))
            }
            (None, None) => {
                return Err(cx.err(
                    &e.span(),
                    format!("{ewhat} needs `semantic` (an output element) or `gap` (components to skip)"),
                ))
            }
            (None, Some((_, gv))) => {
                for key in ["index", "start_component", "component_count"] {
                    if let Some((kk, _)) = get(et, key) {
                        return Err(cx.err(
                            &kk.span(),
                            format!("{ewhat} is a gap: `{key}` does not apply (`gap` is its component count)"),
                        ));
                    }
                }
                let n = as_u32(cx, "gap", gv)?;
                if n == 0 || n > 128 {
                    return Err(cx.err(&gv.span(), format!("`gap` is {n}; a gap skips 1-128 components")));
                }
                dxbc_wgsl::geometry::SoDeclarationEntry {
                    stream,
                    semantic_name: None,
                    semantic_index: 0,
                    start_component: 0,
                    component_count: n,
                    output_slot,
                }
            }
            (Some((_, sv)), None) => {
                let name = as_str(cx, "semantic", sv)?;
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(cx.err(&sv.span(), format!("`semantic` `{name}` is not a semantic name")));
                }
                let Some(count) = small("component_count", 4)? else {
                    return Err(cx.err(&e.span(), format!("{ewhat} needs `component_count` (1-4)")));
                };
                let start = small("start_component", 3)?.unwrap_or(0);
                if count == 0 || start + count > 4 {
                    return Err(cx.err(
                        &e.span(),
                        format!("{ewhat}: components {start}..{} are not within one register's 4", start + count),
                    ));
                }
                dxbc_wgsl::geometry::SoDeclarationEntry {
                    stream,
                    semantic_name: Some(name.to_string()),
                    semantic_index: opt_u32(cx, et, "index")?.unwrap_or(0),
                    start_component: start,
                    component_count: count,
                    output_slot,
                }
            }
        };
        entries.push(entry);
        entry_spans.push(e.span());
    }
    let (strides, strides_span) = match get(t, "strides") {
        Some((_, sv)) => {
            let list = as_array(cx, "strides", sv)?;
            if list.is_empty() || list.len() > 4 {
                return Err(cx.err(&sv.span(), format!("{what}: `strides` has one value per slot, 1-4 of them")));
            }
            let values = list.iter().map(|v| as_u32(cx, "strides", v)).collect::<R<Vec<u32>>>()?;
            (Some(values), Some((sv.span(), list.iter().map(|v| v.span()).collect())))
        }
        None => (None, None),
    };
    let rasterized_stream = match get(t, "rasterized_stream") {
        None => Some(0),
        Some((_, rv)) => match rv.get_ref() {
            DeValue::String(s) if s.as_ref() == "none" => None,
            DeValue::Integer(_) => {
                let n = as_u32(cx, "rasterized_stream", rv)?;
                if n > 3 {
                    return Err(cx.err(&rv.span(), format!("`rasterized_stream` is {n}: a stream 0-3, or \"none\"")));
                }
                Some(n)
            }
            _ => return Err(cx.err(&rv.span(), "`rasterized_stream` must be a stream 0-3, or \"none\"")),
        },
    };
    Ok(StreamOutputDecl { entries, entry_spans, strides, strides_span, rasterized_stream, span: k.span() })
}

fn normalize(p: &Path) -> PathBuf {
    p.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect()
}

fn stages_overlap(a: &Option<Vec<Stage>>, b: &Option<Vec<Stage>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.iter().any(|s| b.contains(s)),
        _ => true,
    }
}

fn parse_register(cx: &Ctx<'_>, text: &str, span: &Span) -> R<(char, u32)> {
    let t = text.trim();
    let mut cs = t.chars();
    let class = cs.next().map(|c| c.to_ascii_lowercase());
    let num = cs.as_str();
    match class {
        Some(c @ ('b' | 't' | 's' | 'u')) if !num.is_empty() && num.chars().all(|d| d.is_ascii_digit()) => {
            let slot: u32 = num.parse().map_err(|_| cx.err(span, format!("register `{text}` is out of range")))?;
            Ok((c, slot))
        }
        _ => Err(cx.err(span, format!("`{text}` is not a D3D register (b0, t3, s1, u2, ...)"))),
    }
}

fn parse_stages(cx: &Ctx<'_>, t: &DeTable<'_>) -> R<Option<Vec<Stage>>> {
    let Some((_, v)) = get(t, "stages") else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for s in as_array(cx, "stages", v)? {
        let name = as_str(cx, "stages", s)?;
        out.push(match name {
            "vertex" => Stage::Vertex,
            "pixel" => Stage::Pixel,
            "compute" => Stage::Compute,
            "geometry" => Stage::Geometry,
            _ => {
                return Err(
                    cx.err(&s.span(), format!("unknown stage `{name}` (expected vertex, geometry, pixel or compute)"))
                )
            }
        });
    }
    if out.is_empty() {
        return Err(cx.err(&v.span(), "`stages` must name at least one stage"));
    }
    Ok(Some(out))
}

fn parse_axis(cx: &Ctx<'_>, k: &Key<'_>, v: &Val<'_>) -> R<Axis> {
    let name = k.get_ref().to_string();
    check_ident(cx, &name, &k.span(), "axis name")?;
    let enum_values = |arr: &[Val<'_>], at: &Span| -> R<Vec<String>> {
        // An effect has at most 4096 permutations, so no axis can have more values.
        if arr.len() > 4096 {
            return Err(
                cx.err(at, format!("axis `{name}` has {} values; an effect has at most 4096 permutations", arr.len()))
            );
        }
        let mut vals: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for x in arr {
            let s = as_str(cx, "values", x)?.to_string();
            check_ident(cx, &s, &x.span(), "axis value")?;
            if pascal_case(&s) == "Self" {
                return Err(cx.err(&x.span(), format!("axis value `{s}` would become the Rust name `Self`, a keyword")));
            }
            if !seen.insert(pascal_case(&s)) {
                return Err(cx.err(&x.span(), format!("axis `{name}` lists value `{s}` twice")));
            }
            if s == "true" || s == "false" {
                return Err(cx.err(&x.span(), "use `type = \"bool\"` for a true/false axis"));
            }
            vals.push(s);
        }
        if vals.is_empty() {
            return Err(cx.err(at, format!("axis `{name}` needs at least one value")));
        }
        Ok(vals)
    };
    let (kind, default_v, doc) = match v.get_ref() {
        DeValue::String(s) if s.as_ref() == "bool" => (AxisKind::Bool, None, None),
        DeValue::String(s) => {
            return Err(cx.err(
                &v.span(),
                format!("axis `{name}`: `{s}` is not an axis type (write \"bool\", a list of values, or a table)"),
            ))
        }
        DeValue::Array(a) => (AxisKind::Enum(enum_values(a, &v.span())?), None, None),
        DeValue::Table(t) => {
            check_keys(cx, t, &format!("axis `{name}`"), &["type", "values", "default", "doc"])?;
            let kind = match (get(t, "type"), get(t, "values")) {
                (Some((_, tv)), None) => match as_str(cx, "type", tv)? {
                    "bool" => AxisKind::Bool,
                    "enum" => {
                        return Err(cx.err(&tv.span(), format!("axis `{name}`: an enumeration needs `values = [...]`")))
                    }
                    other => {
                        return Err(
                            cx.err(&tv.span(), format!("axis `{name}`: type `{other}` is not \"bool\" or \"enum\""))
                        )
                    }
                },
                (Some((_, tv)), Some((_, vv))) => {
                    if as_str(cx, "type", tv)? != "enum" {
                        return Err(cx.err(&tv.span(), format!("axis `{name}` has `values`, so its type is \"enum\"")));
                    }
                    AxisKind::Enum(enum_values(as_array(cx, "values", vv)?, &vv.span())?)
                }
                (None, Some((_, vv))) => AxisKind::Enum(enum_values(as_array(cx, "values", vv)?, &vv.span())?),
                (None, None) => {
                    return Err(cx.err(&k.span(), format!("axis `{name}` needs `type = \"bool\"` or `values = [...]`")))
                }
            };
            (kind, get(t, "default").map(|(_, d)| d), opt_str(cx, t, "doc")?)
        }
        other => {
            return Err(cx.err(
                &v.span(),
                format!("axis `{name}` must be \"bool\", an array of values, or a table, found {}", type_name(other)),
            ))
        }
    };
    let default = match default_v {
        None => 0,
        Some(d) => match (&kind, d.get_ref()) {
            (AxisKind::Bool, DeValue::Boolean(b)) => usize::from(*b),
            (AxisKind::Enum(vals), DeValue::String(s)) => {
                vals.iter().position(|x| x == s.as_ref()).ok_or_else(|| {
                    cx.err(&d.span(), format!("default `{s}` is not a value of axis `{name}` ({})", vals.join(", ")))
                })?
            }
            (AxisKind::Bool, other) => {
                return Err(cx.err(
                    &d.span(),
                    format!("default of bool axis `{name}` must be true or false, found {}", type_name(other)),
                ))
            }
            (AxisKind::Enum(_), other) => {
                return Err(cx.err(
                    &d.span(),
                    format!("default of axis `{name}` must be one of its values, found {}", type_name(other)),
                ))
            }
        },
    };
    Ok(Axis { name, span: k.span(), doc, kind, default })
}

fn parse_condition(cx: &Ctx<'_>, axes: &[Axis], key: &str, v: &Val<'_>) -> R<Condition> {
    let t = as_table(cx, key, v)?;
    let mut terms = Vec::new();
    for (k, val) in entries(t) {
        let Some(ai) = axes.iter().position(|a| a.name == k.get_ref().as_ref()) else {
            let known: Vec<_> = axes.iter().map(|a| a.name.as_str()).collect();
            return Err(cx.err(
                &k.span(),
                format!(
                    "no axis named `{}` (axes: {})",
                    k.get_ref(),
                    if known.is_empty() { "none".into() } else { known.join(", ") }
                ),
            ));
        };
        let axis = &axes[ai];
        let one = |x: &Val<'_>| -> R<usize> {
            match (&axis.kind, x.get_ref()) {
                (AxisKind::Bool, DeValue::Boolean(b)) => Ok(usize::from(*b)),
                (AxisKind::Enum(vals), DeValue::String(s)) => {
                    vals.iter().position(|y| y == s.as_ref()).ok_or_else(|| {
                        cx.err(
                            &x.span(),
                            format!("axis `{}` has no value `{s}` (values: {})", axis.name, vals.join(", ")),
                        )
                    })
                }
                (AxisKind::Bool, other) => Err(cx.err(
                    &x.span(),
                    format!("axis `{}` is a bool: expected true or false, found {}", axis.name, type_name(other)),
                )),
                (AxisKind::Enum(vals), other) => Err(cx.err(
                    &x.span(),
                    format!("axis `{}` takes one of {}, found {}", axis.name, vals.join(", "), type_name(other)),
                )),
            }
        };
        let values = match val.get_ref() {
            DeValue::Array(a) => a.iter().map(one).collect::<R<Vec<_>>>()?,
            _ => vec![one(val)?],
        };
        terms.push((ai, values));
    }
    Ok(Condition { terms, span: v.span() })
}

fn parse_fields(cx: &Ctx<'_>, name: &str, span: &Span, v: &Val<'_>) -> R<Layout> {
    let arr = as_array(cx, "fields", v)?;
    if arr.is_empty() {
        return Err(cx.err(&v.span(), format!("layout `{name}` has no fields")));
    }
    let mut raw = Vec::new();
    let mut spans = Vec::new();
    let mut docs = Vec::new();
    let mut snake: Vec<String> = Vec::new();
    for f in arr {
        let t = as_table(cx, "fields", f)?;
        check_keys(cx, t, "a field", &["name", "type", "offset", "packing", "doc"])?;
        let nv = require(cx, t, "name", &f.span(), "a field")?;
        let fname = as_str(cx, "name", nv)?.to_string();
        check_hlsl_ident(cx, &fname, &nv.span(), "field name")?;
        let s = snake_case(&fname);
        if snake.contains(&s) || s.starts_with("_pad") {
            return Err(cx.err(
                &nv.span(),
                format!("field `{fname}` gives the Rust field name `{s}`, which is already used in layout `{name}`"),
            ));
        }
        snake.push(s);
        let tv = require(cx, t, "type", &nv.span(), &format!("field `{fname}`"))?;
        let mut ty = HlslType::parse(as_str(cx, "type", tv)?).map_err(|e| cx.err(&tv.span(), e.0))?;
        if let Some((_, pv)) = get(t, "packing") {
            let p = match as_str(cx, "packing", pv)? {
                "column_major" => MatrixPacking::ColumnMajor,
                "row_major" => MatrixPacking::RowMajor,
                other => return Err(cx.err(&pv.span(), format!("packing `{other}` is not column_major or row_major"))),
            };
            if !matches!(ty.shape, Shape::Matrix { .. }) {
                return Err(cx.err(&pv.span(), format!("`packing` applies to matrices, and `{fname}` is a {ty}")));
            }
            ty = ty.with_packing(p);
        }
        let offset = match get(t, "offset") {
            Some((_, ov)) => Some(layout::parse_offset(as_str(cx, "offset", ov)?).map_err(|m| cx.err(&ov.span(), m))?),
            None => None,
        };
        spans.push(get(t, "offset").map(|(_, ov)| ov.span()).unwrap_or_else(|| nv.span()));
        docs.push(opt_str(cx, t, "doc")?);
        raw.push((fname, ty, offset));
    }
    let fields = layout::place(&raw).map_err(|(i, m)| cx.err(&spans[i], m))?;
    Ok(Layout {
        name: name.to_string(),
        span: span.clone(),
        doc: None,
        fields,
        field_spans: spans,
        field_docs: docs,
        from_reflection: false,
    })
}

fn parse_stage(
    cx: &Ctx<'_>,
    view: &AxesView<'_>,
    axes: &[Axis],
    stage: Stage,
    k: &Key<'_>,
    v: &Val<'_>,
) -> R<StageRules> {
    let key = k.get_ref().to_string();
    let pattern = |text: &str, span: &Span| -> R<Pattern> {
        Pattern::parse(text, view).map_err(|e| {
            // The value span includes the opening quote(s).
            let quote = if cx.src[span.start..].starts_with("\"\"\"") || cx.src[span.start..].starts_with("'''") {
                3
            } else {
                1
            };
            cx.err(&((span.start + quote + e.at)..span.end), e.message)
        })
    };
    let rule_from_table = |t: &DeTable<'_>, at: &Span, allow_when: bool| -> R<Rule> {
        let allowed: &[&str] = if allow_when { &["when", "path", "symbol"] } else { &["path", "symbol"] };
        check_keys(cx, t, &format!("the {key} shader"), allowed)?;
        let pv = require(cx, t, "path", at, &format!("the {key} shader"))?;
        let path = pattern(as_str(cx, "path", pv)?, &pv.span())?;
        let symbol = match get(t, "symbol") {
            Some((_, sv)) => Some(pattern(as_str(cx, "symbol", sv)?, &sv.span())?),
            None => None,
        };
        let when = match get(t, "when") {
            Some((_, wv)) => Some(parse_condition(cx, axes, "when", wv)?),
            None => None,
        };
        Ok(Rule { when, path, path_span: pv.span(), symbol })
    };
    let rules = match v.get_ref() {
        DeValue::String(s) => {
            vec![Rule { when: None, path: pattern(s, &v.span())?, path_span: v.span(), symbol: None }]
        }
        DeValue::Table(t) => vec![rule_from_table(t, &v.span(), true)?],
        DeValue::Array(a) => {
            let mut rules: Vec<Rule> = Vec::new();
            for item in a.iter() {
                let t = as_table(cx, &key, item)?;
                if let Some(prev) = rules.iter().find(|r| r.when.is_none()) {
                    let (line, _) = crate::diag::line_column(cx.src, prev.path_span.start);
                    return Err(cx.err(
                        &item.span(),
                        format!("this rule is never used: the rule on line {line} has no `when` and matches every permutation"),
                    ));
                }
                rules.push(rule_from_table(t, &item.span(), true)?);
            }
            if rules.is_empty() {
                return Err(cx.err(&v.span(), format!("`{key}` lists no shader")));
            }
            rules
        }
        other => {
            return Err(cx.err(
                &v.span(),
                format!(
                    "`{key}` must be a path, a table {{ path = ..., symbol = ... }}, or an array of rules, found {}",
                    type_name(other)
                ),
            ))
        }
    };
    Ok(StageRules { stage, span: k.span(), rules })
}
