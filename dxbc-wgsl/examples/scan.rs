fn main() {
    let root = std::env::args().nth(1).unwrap();
    let mut stack = vec![std::path::PathBuf::from(root)];
    let (mut ok, mut bad) = (0, 0);
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
        match dxbc_wgsl::Shader::parse(&b, &Default::default()) {
            Ok(_) => ok += 1,
            Err(e) => {
                bad += 1;
                if bad < 40 {
                    println!("{}: {e}", p.display());
                }
            }
        }
    }
    println!("ok {ok} bad {bad}");
}
