// Creating WebGPU pipelines and constant buffers from a dxbc-wgsl web artifact
// (docs/web-artifact.md; the types are docs/web-artifact.d.ts). Plain JavaScript, no
// dependencies: `import { createPipelines, packCbuffer } from './effect-pipeline.mjs'`.
// tools/browser's gate runs this file in Chromium for every pipeline of every effect.

export const SCHEMA = 'dxbc-wgsl-effect/1';

/** Throws unless `artifact` is a document of the schema this file reads. */
export function checkArtifact(artifact) {
  if (artifact?.schema !== SCHEMA) {
    throw new Error(`not a ${SCHEMA} artifact (schema ${JSON.stringify(artifact?.schema)})`);
  }
}

/** The effect's bind group layouts, by id (`artifact.bindGroupLayouts`). */
export function createBindGroupLayouts(device, artifact) {
  return artifact.bindGroupLayouts.map((l) =>
    device.createBindGroupLayout({
      label: `${artifact.name}: ${l.label}`,
      entries: l.entries.map((e) => {
        const entry = { binding: e.binding, visibility: e.visibility };
        for (const k of ['buffer', 'sampler', 'texture', 'storageTexture']) if (e[k]) entry[k] = e[k];
        return entry;
      }),
    }),
  );
}

/** A format a color output of this scalar kind can be written to. */
export function defaultColorFormat(scalar) {
  return { f32: 'rgba8unorm', u32: 'rgba32uint', i32: 'rgba32sint' }[scalar];
}

/** The GPUVertexBufferLayout of a layout id. */
function vertexBuffer(artifact, id) {
  const l = artifact.vertexBufferLayouts[id];
  return {
    arrayStride: l.arrayStride,
    stepMode: l.stepMode,
    attributes: l.attributes.map((a) => ({ format: a.format, offset: a.offset, shaderLocation: a.shaderLocation })),
  };
}

/**
 * Creates every pipeline of one pass and permutation (a render or compute pass has one; a pass
 * with a geometry shader has its compute pipelines and its draw), with
 * createRenderPipelineAsync/createComputePipelineAsync. Resolves to [{ role, kind, pipeline }].
 *
 * options: { layouts (from createBindGroupLayouts; made if absent), modules (a Map cache),
 *   colorFormats (per render target; default per output kind), depthFormat (no depth buffer
 *   if absent), sampleCount (1), primitive (fields replacing the pass's), depthStencil
 *   (replaces the pass's depth-stencil state), blend (false: blending off) }.
 */
export async function createPipelines(device, artifact, passIndex, permutation, options = {}) {
  checkArtifact(artifact);
  const layouts = options.layouts ?? createBindGroupLayouts(device, artifact);
  const modules = options.modules ?? new Map();
  const sampleCount = options.sampleCount ?? 1;
  const pass = artifact.passes[passIndex];
  const variant = pass.variants[permutation];
  const stage = (s) => {
    if (!modules.has(s.shader)) {
      const shader = artifact.shaders[s.shader];
      modules.set(s.shader, device.createShaderModule({ label: shader.labels[0], code: shader.code }));
    }
    const constants = {};
    for (const [name, value] of Object.entries(s.constants)) {
      const c = artifact.shaders[s.shader].pipelineConstants.find((k) => k.name === name);
      constants[name] = c?.meaning === 'sample-count' ? sampleCount : value;
    }
    return { module: modules.get(s.shader), entryPoint: s.entryPoint, constants };
  };
  const out = [];
  for (const p of variant.pipelines) {
    const label = `${artifact.name}: ${pass.name} #${permutation} ${p.role}`;
    const layout = device.createPipelineLayout({ label, bindGroupLayouts: p.bindGroupLayouts.map((id) => layouts[id]) });
    if (p.kind === 'compute') {
      const pipeline = await device.createComputePipelineAsync({ label, layout, compute: stage(p.compute) });
      out.push({ role: p.role, kind: p.kind, pipeline });
      continue;
    }
    const states = pass.states;
    let fragment;
    if (p.fragment) {
      const shader = artifact.shaders[p.fragment.shader];
      const count = Math.max(0, ...shader.colorOutputs.map((o) => o.location + 1));
      const targets = [];
      for (let i = 0; i < count; i++) {
        const output = shader.colorOutputs.find((o) => o.location === i);
        if (!output) {
          targets.push(null);
          continue;
        }
        const target = { format: options.colorFormats?.[i] ?? defaultColorFormat(output.scalar) };
        target.writeMask = states.targets[i].writeMask;
        if (states.targets[i].blend && output.scalar === 'f32' && options.blend !== false) {
          target.blend = states.targets[i].blend;
        }
        targets.push(target);
      }
      fragment = { ...stage(p.fragment), targets };
    }
    const primitive = { ...p.primitive, ...options.primitive };
    if (!primitive.topology.endsWith('-strip')) delete primitive.stripIndexFormat;
    const descriptor = {
      label,
      layout,
      vertex: { ...stage(p.vertex), buffers: (p.vertexBuffers ?? []).map((id) => vertexBuffer(artifact, id)) },
      primitive,
      multisample: { count: sampleCount, alphaToCoverageEnabled: sampleCount > 1 && states.alphaToCoverage },
    };
    if (fragment) descriptor.fragment = fragment;
    if (options.depthFormat) {
      descriptor.depthStencil = options.depthStencil
        ? { format: options.depthFormat, ...options.depthStencil }
        : { format: options.depthFormat, ...states.depthStencil };
    }
    const pipeline = await device.createRenderPipelineAsync(descriptor);
    out.push({ role: p.role, kind: p.kind, pipeline });
  }
  return out;
}

/**
 * The bytes of constant buffer `cbuffer` (an index into artifact.cbuffers) holding `values`:
 * per HLSL variable name, a flat list of numbers in HLSL element order (array element by
 * element, a matrix row by row: m[r][c], whatever its packing); a struct's members are named
 * `Variable[i].Member`. Variables left out are zero.
 */
export function packCbuffer(artifact, cbuffer, values) {
  const layout = artifact.cbuffers[cbuffer];
  const bytes = new ArrayBuffer(layout.size);
  const view = new DataView(bytes);
  const write = (f, base, prefix) => {
    const name = prefix + f.name;
    const offset = base + f.offset;
    const count = f.arrayLength ?? 1;
    const stride = f.arrayStride ?? 0;
    if (f.members) {
      for (let e = 0; e < count; e++) {
        const element = f.arrayLength === undefined ? `${name}.` : `${name}[${e}].`;
        for (const m of f.members) write(m, offset + e * stride, element);
      }
      return;
    }
    const v = values[name];
    if (v === undefined) return;
    const rows = f.rows ?? 1;
    const columns = f.columns ?? 1;
    const matrix = f.packing !== undefined;
    const rowMajor = f.packing === 'row_major';
    let k = 0;
    for (let e = 0; e < count; e++) {
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++, k++) {
          if (k >= v.length) return;
          const at = offset + e * stride + (!matrix ? c * 4 : rowMajor ? r * 16 + c * 4 : c * 16 + r * 4);
          if (f.scalar === 'f32') view.setFloat32(at, v[k], true);
          else if (f.scalar === 'i32') view.setInt32(at, v[k], true);
          else view.setUint32(at, v[k], true);
        }
      }
    }
  };
  for (const f of layout.fields) write(f, 0, '');
  return bytes;
}
