fn main() {
    let mut stack: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let verbose = stack.len() == 1 && stack[0].is_file();
    let (mut q, mut u, mut f) = (0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    while let Some(p) = stack.pop() {
        if p.is_dir() { for e in std::fs::read_dir(&p).unwrap() { stack.push(e.unwrap().path()); } continue; }
        if p.extension().and_then(|e| e.to_str()) != Some("dxbc") { continue; }
        let b = std::fs::read(&p).unwrap();
        let Ok(sh) = dxbc_wgsl::Shader::parse(&b, &Default::default()) else { continue };
        let _ = sh;
        match dxbc_wgsl::translate(&b, &Default::default()) {
            Ok(t) => { q += 1; if verbose { println!("{}", t.wgsl); } }
            Err(dxbc_wgsl::TranslateError::Unsupported(r)) => { u += 1; *reasons.entry(format!("{} {}", r.reason, r.detail.chars().take(60).collect::<String>())).or_default() += 1; if verbose { println!("{r}"); } }
            Err(e) => { f += 1; println!("FAILED {}: {e}", p.display()); }
        }
    }
    for (r, n) in &reasons { println!("{n:5} {r}"); }
    println!("qualified: {q}, unsupported: {u}, failed: {f}");
}
