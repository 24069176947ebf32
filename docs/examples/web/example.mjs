// The short example of docs/web-artifact.md: BasicEffect's pipeline for one permutation from its
// web artifact, its constant buffer packed from named values, one triangle drawn into a 64×64
// texture. Runs in any WebGPU page (tools/browser's gate runs it in Chromium).
import { createBindGroupLayouts, createPipelines, packCbuffer } from './effect-pipeline.mjs';

export async function example(device, artifact) {
  // The permutation: BasicEffect without fog, texture or lighting (its vertex color off too).
  const permutation = artifact.permutations.findIndex((p) =>
    Object.entries(p.values).every(([axis, value]) => value === (axis === 'lighting' ? 'none' : 'false')),
  );
  const layouts = createBindGroupLayouts(device, artifact);
  const [{ pipeline }] = await createPipelines(device, artifact, 0, permutation, {
    layouts,
    colorFormats: ['rgba8unorm'],
  });
  const variant = artifact.passes[0].variants[permutation].pipelines[0];

  // `parameters` is BasicEffect's cbuffer: DiffuseColor, and WorldViewProj as the identity.
  const resource = artifact.resources.find((r) => r.name === 'parameters');
  const bytes = packCbuffer(artifact, resource.cbuffer, {
    DiffuseColor: [0.25, 0.5, 1.0, 1.0],
    WorldViewProj: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  });
  const cbuffer = device.createBuffer({ size: bytes.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(cbuffer, 0, bytes);

  // Every group's entries bind the resource the artifact names (here only `parameters`).
  const groups = variant.bindGroupLayouts.map((id, g) =>
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(g),
      entries: artifact.bindGroupLayouts[id].entries.map((e) => ({ binding: e.binding, resource: { buffer: cbuffer } })),
    }),
  );

  // One triangle covering the middle of the target, in the vertex layout the artifact gives.
  const layout = artifact.vertexBufferLayouts[variant.vertexBuffers[0]];
  const vertices = new Float32Array(layout.arrayStride / 4 * 3);
  [[-0.5, -0.5], [0, 0.5], [0.5, -0.5]].forEach(([x, y], i) => vertices.set([x, y, 0], i * layout.arrayStride / 4));
  const vertexBuffer = device.createBuffer({ size: vertices.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(vertexBuffer, 0, vertices);

  const target = device.createTexture({
    size: [64, 64],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const readback = device.createBuffer({ size: 256 * 64, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
  });
  pass.setPipeline(pipeline);
  groups.forEach((g, i) => pass.setBindGroup(i, g));
  pass.setVertexBuffer(0, vertexBuffer);
  pass.draw(3);
  pass.end();
  encoder.copyTextureToBuffer({ texture: target }, { buffer: readback, bytesPerRow: 256 }, [64, 64]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const pixels = new Uint8Array(readback.getMappedRange());
  // The centre pixel (the triangle, DiffuseColor) and a corner (the clear color).
  return { centre: [...pixels.slice(32 * 256 + 32 * 4, 32 * 256 + 32 * 4 + 4)], corner: [...pixels.slice(0, 4)] };
}
