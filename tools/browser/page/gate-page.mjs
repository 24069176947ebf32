// The page side of tools/browser/gate.mjs: WebGPU work on Chromium's adapter. Every function
// resolves to plain JSON for the driver; nothing throws past it (errors are reported).
import { createBindGroupLayouts, createPipelines, packCbuffer, checkArtifact } from '/docs/examples/web/effect-pipeline.mjs';
import { example as docsExample } from '/docs/examples/web/example.mjs';

let devicePromise;
const uncaptured = [];

/** The adapter and a device with every feature the adapter has (the artifacts name theirs). */
async function device() {
  devicePromise ??= (async () => {
    const adapter = await navigator.gpu?.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter (navigator.gpu.requestAdapter() gave null)');
    const limits = {};
    for (const k of ['maxStorageBuffersPerShaderStage', 'maxComputeWorkgroupStorageSize', 'maxBindGroups',
      'maxComputeInvocationsPerWorkgroup', 'maxStorageTexturesPerShaderStage', 'maxSampledTexturesPerShaderStage',
      'maxInterStageShaderVariables', 'maxVertexAttributes', 'maxBindingsPerBindGroup']) {
      limits[k] = adapter.limits[k];
    }
    const dev = await adapter.requestDevice({ requiredFeatures: [...adapter.features], requiredLimits: limits });
    dev.addEventListener('uncapturederror', (e) => uncaptured.push(e.error.message));
    return { adapter, device: dev };
  })();
  return devicePromise;
}

export async function adapterInfo() {
  const { adapter, device: dev } = await device();
  return { vendor: adapter.info.vendor, architecture: adapter.info.architecture, description: adapter.info.description,
    features: [...dev.features].sort() };
}

/**
 * Compiles each { id, code, features }: { id, ok, messages } with getCompilationInfo()'s messages,
 * or { id, skipped } when the module needs a feature the adapter lacks.
 */
export async function qualify(batch) {
  const { device: dev } = await device();
  const out = [];
  for (const req of batch) {
    const missing = (req.features ?? []).filter((f) => !dev.features.has(f));
    if (missing.length) {
      out.push({ id: req.id, ok: true, messages: [], skipped: `needs feature ${missing.join(', ')}, which the adapter lacks` });
      continue;
    }
    dev.pushErrorScope('validation');
    const module = dev.createShaderModule({ code: req.code });
    const info = await module.getCompilationInfo();
    const error = await dev.popErrorScope();
    const messages = info.messages.map((m) => ({ type: m.type, line: m.lineNum, col: m.linePos, text: m.message }));
    if (error && !messages.some((m) => m.type === 'error')) messages.push({ type: 'error', line: 0, col: 0, text: error.message });
    out.push({ id: req.id, ok: !messages.some((m) => m.type === 'error' || m.type === 'warning'), messages });
  }
  return out;
}

async function json(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
}

/** Creates every pipeline of every pass and permutation of each artifact, in error scopes. */
export async function pipelines(files) {
  const { device: dev } = await device();
  const report = [];
  for (const file of files) {
    const entry = { file, pipelines: 0, variants: 0, errors: [] };
    report.push(entry);
    let artifact;
    try {
      artifact = await json(`/data/${file}`);
      checkArtifact(artifact);
    } catch (e) {
      entry.errors.push(`${file}: ${e.message}`);
      continue;
    }
    const missing = new Set();
    for (const pass of artifact.passes) for (const v of pass.variants) for (const f of v.requiredFeatures) if (!dev.features.has(f)) missing.add(f);
    if (missing.size) {
      entry.errors.push(`${file}: the device lacks ${[...missing].join(', ')}`);
      continue;
    }
    dev.pushErrorScope('validation');
    const layouts = createBindGroupLayouts(dev, artifact);
    const layoutError = await dev.popErrorScope();
    if (layoutError) entry.errors.push(`${file}: bind group layouts: ${layoutError.message}`);
    const modules = new Map();
    for (const [pi, pass] of artifact.passes.entries()) {
      for (const [vi, variant] of pass.variants.entries()) {
        entry.variants++;
        const render = pass.kind !== 'compute';
        const stencil = render && (pass.states.depthStencil.stencilFront.compare !== 'always' || pass.states.depthStencil.stencilBack.compare !== 'always'
          || pass.states.depthStencil.stencilWriteMask !== 0);
        dev.pushErrorScope('validation');
        dev.pushErrorScope('internal');
        try {
          const made = await createPipelines(dev, artifact, pi, vi, {
            layouts,
            modules,
            depthFormat: render ? (stencil ? 'depth24plus-stencil8' : 'depth32float') : undefined,
          });
          entry.pipelines += made.length;
        } catch (e) {
          entry.errors.push(`${artifact.name} pass ${pass.name} permutation ${vi}: ${e.message}`);
        }
        for (const scope of ['internal', 'validation']) {
          const error = await dev.popErrorScope();
          if (error) entry.errors.push(`${artifact.name} pass ${pass.name} permutation ${vi} (${scope}): ${error.message}`);
        }
      }
    }
  }
  return { report, uncaptured: uncaptured.splice(0) };
}

/** Draws `/data/<scene>` (example-engine --web-scene) and reads the color target back. */
export async function draw(sceneFile) {
  const { device: dev } = await device();
  const scene = await json(`/data/${sceneFile}`);
  const data = await (await fetch(`/data/${scene.data}`)).arrayBuffer();
  const slice = ([offset, length]) => new Uint8Array(data, offset, length);
  const errors = [];
  dev.pushErrorScope('validation');
  const textures = scene.textures.map((t) => {
    const texture = dev.createTexture({ label: t.name, size: [t.width, t.height], format: t.format,
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    const texelBytes = { rgba8unorm: 4, rgba16float: 8 }[t.format];
    dev.queue.writeTexture({ texture }, slice(t.data), { bytesPerRow: t.width * texelBytes }, [t.width, t.height]);
    return texture.createView();
  });
  const samplers = scene.samplers.map((s) => dev.createSampler({ label: s.name, ...s.descriptor }));
  const color = dev.createTexture({ size: [scene.width, scene.height], format: scene.colorFormat,
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const depth = dev.createTexture({ size: [scene.width, scene.height], format: scene.depthFormat, usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const artifacts = new Map();
  const draws = [];
  for (const d of scene.draws) {
    if (!artifacts.has(d.effect)) {
      const a = await json(`/data/${d.effect}.effect.json`);
      checkArtifact(a);
      artifacts.set(d.effect, { artifact: a, layouts: createBindGroupLayouts(dev, a) });
    }
    const { artifact, layouts } = artifacts.get(d.effect);
    const [made] = await createPipelines(dev, artifact, d.pass, d.permutation, {
      layouts, colorFormats: [scene.colorFormat], depthFormat: scene.depthFormat,
      primitive: d.primitive, depthStencil: d.depthStencil ?? scene.depthStencil, blend: false,
    });
    const desc = artifact.passes[d.pass].variants[d.permutation].pipelines[0];
    const buffers = new Map();
    const resource = (e) => {
      const r = d.resources[e.resource];
      if (!r) throw new Error(`${artifact.name}: the scene binds nothing to ${e.resource}`);
      if (r.cbuffer) {
        if (!buffers.has(e.resource)) {
          const index = artifact.resources.find((x) => x.name === e.resource).cbuffer;
          const bytes = packCbuffer(artifact, index, r.cbuffer);
          const b = dev.createBuffer({ label: e.resource, size: bytes.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
          dev.queue.writeBuffer(b, 0, bytes);
          buffers.set(e.resource, b);
        }
        return { buffer: buffers.get(e.resource) };
      }
      if (r.texture !== undefined) return textures[r.texture];
      return samplers[r.sampler];
    };
    const groups = desc.bindGroupLayouts.map((id) =>
      dev.createBindGroup({ layout: layouts[id], entries: artifact.bindGroupLayouts[id].entries.map((e) => ({ binding: e.binding, resource: resource(e) })) }));
    // A draw without buffers (a full-screen pass) draws `vertexCount` vertices.
    let vb = null;
    let ib = null;
    if (d.vertexBuffer) {
      vb = dev.createBuffer({ size: d.vertexBuffer[1], usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
      dev.queue.writeBuffer(vb, 0, slice(d.vertexBuffer));
      ib = dev.createBuffer({ size: d.indexBuffer[1], usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
      dev.queue.writeBuffer(ib, 0, slice(d.indexBuffer));
    }
    draws.push({ pipeline: made.pipeline, groups, vb, ib, d });
  }
  const bytesPerRow = Math.ceil(scene.width * 4 / 256) * 256;
  const readback = dev.createBuffer({ size: bytesPerRow * scene.height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = dev.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: scene.clear }],
    depthStencilAttachment: { view: depth.createView(), depthLoadOp: 'clear', depthStoreOp: 'store', depthClearValue: 1 },
  });
  for (const { pipeline, groups, vb, ib, d } of draws) {
    // A draw with a viewport (a tile of a contact-sheet scene) is drawn and scissored into it.
    const [x, y, w, h] = d.viewport ?? [0, 0, scene.width, scene.height];
    pass.setViewport(x, y, w, h, 0, 1);
    pass.setScissorRect(x, y, w, h);
    pass.setPipeline(pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    if (vb) {
      pass.setVertexBuffer(0, vb);
      pass.setIndexBuffer(ib, d.indexFormat);
      pass.drawIndexed(d.indexCount);
    } else {
      pass.draw(d.vertexCount);
    }
  }
  pass.end();
  encoder.copyTextureToBuffer({ texture: color }, { buffer: readback, bytesPerRow }, [scene.width, scene.height]);
  dev.queue.submit([encoder.finish()]);
  const error = await dev.popErrorScope();
  if (error) errors.push(error.message);
  await readback.mapAsync(GPUMapMode.READ);
  const padded = new Uint8Array(readback.getMappedRange());
  const rgba = new Uint8Array(scene.width * scene.height * 4);
  for (let y = 0; y < scene.height; y++) rgba.set(padded.subarray(y * bytesPerRow, y * bytesPerRow + scene.width * 4), y * scene.width * 4);
  let binary = '';
  for (let i = 0; i < rgba.length; i += 0x8000) binary += String.fromCharCode(...rgba.subarray(i, i + 0x8000));
  return { width: scene.width, height: scene.height, rgba: btoa(binary), errors: errors.concat(uncaptured.splice(0)) };
}

/** Runs docs/examples/web/example.mjs on `/data/<file>` (BasicEffect's artifact). */
export async function example(file) {
  const { device: dev } = await device();
  const artifact = await json(`/data/${file}`);
  dev.pushErrorScope('validation');
  const result = await docsExample(dev, artifact);
  const error = await dev.popErrorScope();
  return { ...result, errors: (error ? [error.message] : []).concat(uncaptured.splice(0)) };
}
