fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let mut stack = vec![root.clone()];
    let mut per: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
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
        if !matches!(sh.program.version.stage, dxbc_wgsl::ShaderStage::Vertex | dxbc_wgsl::ShaderStage::Pixel) {
            continue;
        }
        let folder = p.strip_prefix(&root).unwrap().iter().next().unwrap().to_string_lossy().to_string();
        let e = per.entry(folder.clone()).or_default();
        e.1 += 1;
        match dxbc_wgsl::translate(&b, &Default::default()) {
            Ok(_) => e.0 += 1,
            Err(dxbc_wgsl::TranslateError::Unsupported(r)) => {
                *reasons
                    .entry(format!("{folder}: {} {}", r.reason, r.detail.chars().take(70).collect::<String>()))
                    .or_default() += 1;
            }
            Err(x) => println!("FAILED {}: {x}", p.display()),
        }
    }
    for (f, (q, t)) in &per {
        println!("{f:20} {q}/{t} = {:.1}%", 100.0 * *q as f64 / *t as f64);
    }
    for (r, n) in &reasons {
        println!("{n:4} {r}");
    }
}
