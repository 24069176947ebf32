fn main() {
    let mut stack: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let verbose = stack.len() == 1 && stack[0].is_file();
    let (mut q, mut u, mut f) = (0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
            continue;
        }
        if p.extension().and_then(|e| e.to_str()) != Some("dxbc") {
            continue;
        }
        let b = std::fs::read(&p).unwrap();
        let Ok(sh) = dxbc_wgsl::Shader::parse(&b, &Default::default()) else { continue };
        let _ = sh;
        let mut opts = dxbc_wgsl::TranslateOptions::default();
        if let Ok(f) = std::env::var("TYPED_UAV") {
            let f = dxbc_wgsl::TexelFormat::parse(&f).expect("format");
            opts.typed_uav_formats = (0..8).map(|s| (dxbc_wgsl::ViewRegister::new(s), f)).collect();
        }
        if std::env::var("TYPED_BUF").is_ok() {
            opts.typed_buffer_formats =
                (0..8).map(|s| (dxbc_wgsl::ViewRegister::new(s), dxbc_wgsl::TypedBufferFormat::Float32(4))).collect();
        }
        match dxbc_wgsl::translate(&b, &opts) {
            Ok(t) => {
                q += 1;
                if verbose {
                    println!("{}", t.wgsl);
                }
                if let Ok(d) = std::env::var("DUMP") {
                    let id = p.display().to_string();
                    println!("{}", serde_json_line(&id, &t.wgsl));
                    let _ = d;
                }
            }
            Err(dxbc_wgsl::TranslateError::Unsupported(r)) => {
                u += 1;
                *reasons
                    .entry(format!("{} {}", r.reason, r.detail.chars().take(60).collect::<String>()))
                    .or_default() += 1;
                if verbose {
                    println!("{r}");
                }
            }
            Err(e) => {
                f += 1;
                println!("FAILED {}: {e}", p.display());
            }
        }
    }
    for (r, n) in &reasons {
        println!("{n:5} {r}");
    }
    println!("qualified: {q}, unsupported: {u}, failed: {f}");
}

fn serde_json_line(id: &str, code: &str) -> String {
    fn esc(s: &str) -> String {
        let mut o = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                '\n' => o.push_str("\\n"),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o.push('"');
        o
    }
    format!("JSON{{\"id\":{},\"code\":{}}}", esc(id), esc(code))
}
