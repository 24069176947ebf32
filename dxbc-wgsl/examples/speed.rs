fn main() {
    let root = std::env::args().nth(1).unwrap();
    let mut stack = vec![std::path::PathBuf::from(root)];
    let mut blobs = Vec::new();
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
        if dxbc_wgsl::Shader::parse(&b, &Default::default()).is_ok() {
            blobs.push((p, b));
        }
    }
    let t = std::time::Instant::now();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    let reps = 3;
    for _ in 0..reps {
        for (p, b) in &blobs {
            let t0 = std::time::Instant::now();
            let _ = dxbc_wgsl::translate(b, &Default::default());
            let d = t0.elapsed();
            if d > slowest.0 {
                slowest = (d, p.display().to_string());
            }
        }
    }
    let el = t.elapsed();
    println!(
        "{} shaders x{reps} in {:?}: {:.0} shaders/s; slowest {:?} {}",
        blobs.len(),
        el,
        (blobs.len() * reps) as f64 / el.as_secs_f64(),
        slowest.0,
        slowest.1
    );
}
