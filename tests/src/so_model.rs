//! A CPU model of D3D11.3's stream output (§13.3 the output-vertex limit, §14 the stream-output
//! stage) over what geometry-shader invocations emit, independent of the translator's layout:
//! per invocation in D3D's order its emits and cuts per stream; `dcl_maxout` counting the emits
//! of every stream; strips decomposed into lists (a triangle strip's odd triangle `k` as
//! `(k, k+2, k+1)`); only whole primitives written, and writing of a stream stopped as soon as
//! any one of its buffers (an unbound one counting as full, §14.6) cannot hold the next one;
//! filled sizes kept across draws; statistics per stream.

use dxbc_wgsl::geometry::SoDeclaration;

/// What an invocation does, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `emit_stream m#`: a vertex of these output registers.
    Emit(u32, Vec<[u32; 4]>),
    /// `cut_stream m#`.
    Cut(u32),
}

/// D3D11.3 §13.3: an invocation's emits past `max_vertices` (of all streams together) are
/// dropped (with the cuts after them: the invocation has ended).
pub fn limit_emits(events: &[Event], max_vertices: u32) -> Vec<Event> {
    let mut out = Vec::new();
    let mut emitted = 0;
    for e in events {
        if emitted >= max_vertices {
            break;
        }
        if let Event::Emit(..) = e {
            emitted += 1;
        }
        out.push(e.clone());
    }
    out
}

/// The primitives stream `stream` outputs from `invocations` (each already limited), in order:
/// each invocation's strips (a cut, or the invocation's end, ends one) decomposed.
pub fn primitives(invocations: &[Vec<Event>], stream: u32, prim_vertices: u32) -> Vec<Vec<Vec<[u32; 4]>>> {
    let mut prims = Vec::new();
    for events in invocations {
        let mut strip: Vec<&Vec<[u32; 4]>> = Vec::new();
        let mut flush = |strip: &mut Vec<&Vec<[u32; 4]>>| {
            match prim_vertices {
                1 => prims.extend(strip.iter().map(|v| vec![(*v).clone()])),
                2 => prims.extend(strip.windows(2).map(|w| vec![w[0].clone(), w[1].clone()])),
                _ => prims.extend(strip.windows(3).enumerate().map(|(k, w)| {
                    if k % 2 == 1 {
                        vec![w[0].clone(), w[2].clone(), w[1].clone()]
                    } else {
                        vec![w[0].clone(), w[1].clone(), w[2].clone()]
                    }
                })),
            }
            strip.clear();
        };
        for e in events {
            match e {
                Event::Emit(s, regs) if *s == stream => strip.push(regs),
                Event::Cut(s) if *s == stream => flush(&mut strip),
                _ => {}
            }
        }
        flush(&mut strip);
    }
    prims
}

/// Stream output's state between draws: the bound buffers' words, each slot's filled size,
/// and the statistics of each stream since the last reset.
#[derive(Debug, Clone)]
pub struct SoModel {
    /// The buffer bound to each slot (`None`: unbound), as words.
    pub buffers: [Option<Vec<u32>>; 4],
    /// BufferFilledSize of each slot, in bytes.
    pub filled: [u32; 4],
    /// Per stream: primitives written, primitives storage needed, overflow.
    pub written: [u64; 4],
    /// Per stream: primitives storage needed.
    pub needed: [u64; 4],
    /// Per stream: whether writing stopped short (the overflow predicate).
    pub overflow: [bool; 4],
    /// Per slot: the DrawAuto vertex count the last draw left (filled size / stride).
    pub draw_auto: [Option<u32>; 4],
}

impl SoModel {
    /// Buffers of `words` words each (`None`: unbound), every word `fill`.
    pub fn new(words: [Option<usize>; 4], fill: u32) -> Self {
        SoModel {
            buffers: words.map(|w| w.map(|w| vec![fill; w])),
            filled: [0; 4],
            written: [0; 4],
            needed: [0; 4],
            overflow: [false; 4],
            draw_auto: [None; 4],
        }
    }

    /// One draw's stream output: `prims(stream)` the primitives of each stream the
    /// declaration writes; `offsets[slot]`: `Some(bytes)` sets the slot's filled size first
    /// (`SOSetTargets` with an offset), `None` appends (offset -1).
    pub fn draw(
        &mut self,
        decl: &SoDeclaration,
        offsets: [Option<u32>; 4],
        prims: &dyn Fn(u32) -> Vec<Vec<Vec<[u32; 4]>>>,
    ) {
        for stream in 0..4u32 {
            let slots: Vec<usize> =
                (0..4).filter(|&s| decl.entries.iter().any(|e| e.stream == stream && e.slot as usize == s)).collect();
            if slots.is_empty() {
                continue;
            }
            for &s in &slots {
                if let (Some(o), Some(_)) = (offsets[s], &self.buffers[s]) {
                    self.filled[s] = o;
                }
            }
            let pv = |p: &Vec<Vec<[u32; 4]>>| p.len() as u32;
            for prim in prims(stream) {
                self.needed[stream as usize] += 1;
                let bytes = |s: usize| pv(&prim) * decl.strides[s];
                let fits = slots.iter().all(|&s| match &self.buffers[s] {
                    None => false,
                    Some(b) => u64::from(self.filled[s]) + u64::from(bytes(s)) <= b.len() as u64 * 4,
                });
                if !fits {
                    self.overflow[stream as usize] = true;
                    continue;
                }
                for &s in &slots {
                    let base = self.filled[s];
                    let buf = self.buffers[s].as_mut().expect("bound");
                    for (v, vertex) in prim.iter().enumerate() {
                        let mut at = base + v as u32 * decl.strides[s];
                        for e in decl.entries.iter().filter(|e| e.slot as usize == s) {
                            if let Some(r) = e.register {
                                for c in 0..e.component_count {
                                    buf[(at / 4 + c) as usize] = vertex[r as usize][(e.start_component + c) as usize];
                                }
                            }
                            at += 4 * e.component_count;
                        }
                    }
                    self.filled[s] += bytes(s);
                }
                self.written[stream as usize] += 1;
            }
            for &s in &slots {
                if self.buffers[s].is_some() {
                    self.draw_auto[s] = Some(self.filled[s] / decl.strides[s]);
                }
            }
        }
    }

    /// The runtime's state buffer words this state is (`dxbc_wgsl_gpu::stream_output`'s
    /// layout: filled sizes, statistics, DrawAuto arguments).
    pub fn state_words(&self, filled_at: usize, stats_at: usize, draw_auto_at: usize, words: usize) -> Vec<u32> {
        let mut w = vec![0u32; words];
        for s in 0..4 {
            w[filled_at + s] = self.filled[s];
            if let Some(n) = self.draw_auto[s] {
                w[draw_auto_at + 4 * s] = n;
                w[draw_auto_at + 4 * s + 1] = 1;
            }
            let at = stats_at + 8 * s;
            w[at] = self.written[s] as u32;
            w[at + 1] = (self.written[s] >> 32) as u32;
            w[at + 2] = self.needed[s] as u32;
            w[at + 3] = (self.needed[s] >> 32) as u32;
            w[at + 4] = u32::from(self.overflow[s]);
        }
        w
    }
}
