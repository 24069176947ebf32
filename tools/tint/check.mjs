// Tint check for dxbc-wgsl: reads newline-delimited JSON requests {"id": ..., "code": "..."} on
// stdin and writes one JSON line per request: {"id", "ok", "messages": [{type, line, col, text}]}.
// `ok` is true only when Tint reports no error and no warning. Runs Dawn with the null backend,
// so no GPU is needed. The adapter's features are requested so `enable` directives are allowed.
import { create, globals } from 'webgpu';
import readline from 'node:readline';

Object.assign(globalThis, globals);
const gpu = create(['backend=null']);
const adapter = await gpu.requestAdapter();
if (!adapter) {
  console.error('tint-check: no null-backend adapter from Dawn');
  process.exit(2);
}
const device = await adapter.requestDevice({ requiredFeatures: [...adapter.features] });
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

// Requests are checked in batches: module creation is synchronous, and awaiting the compilation
// info of a whole batch at once avoids one event-loop round trip per module.
const BATCH = 64;
let batch = [];
async function flush() {
  device.pushErrorScope('validation');
  const modules = batch.map((req) => device.createShaderModule({ code: req.code }));
  const infos = await Promise.all(modules.map((m) => m.getCompilationInfo()));
  await device.popErrorScope();
  for (let k = 0; k < batch.length; k++) {
    const messages = infos[k].messages.map((m) => ({ type: m.type, line: m.lineNum, col: m.linePos, text: m.message }));
    const ok = !messages.some((m) => m.type === 'error' || m.type === 'warning');
    process.stdout.write(JSON.stringify({ id: batch[k].id, ok, messages }) + '\n');
  }
  batch = [];
}
for await (const line of rl) {
  if (!line.trim()) continue;
  batch.push(JSON.parse(line));
  if (batch.length >= BATCH) await flush();
}
if (batch.length) await flush();
device.destroy();
process.exit(0);
