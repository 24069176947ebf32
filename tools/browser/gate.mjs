// dxbc-wgsl's browser gate: WGSL and web artifacts in headless Chromium's WebGPU (SwiftShader's
// Vulkan, no GPU needed). Serves this repository and a data folder on 127.0.0.1, opens
// tools/browser/page/index.html in Chromium (playwright-core; `npm ci --prefix tools/browser`)
// and runs one command there:
//
//   node gate.mjs qualify                 newline-delimited JSON {"id", "code"} on stdin, one line
//                                         {"id", "ok", "messages": [{type, line, col, text}]} per
//                                         module on stdout (the protocol of tools/tint/check.mjs)
//   node gate.mjs pipelines --data DIR    creates every pipeline of every DIR/*.effect.json
//   node gate.mjs draw --data DIR --out F [--scene FILE]
//                                         draws DIR/scene.json (or DIR/FILE), writes raw RGBA8 rows to F
//   node gate.mjs example --data DIR      runs docs/examples/web/example.mjs on DIR/basic_effect.effect.json
//
// The last three print one JSON document on stdout. Exit status: 0 done with no error, 1 errors
// reported, 2 the browser or its adapter could not be started. Chromium: DXBC_WGSL_CHROMIUM, else
// /usr/bin/chromium.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [command, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const dataDir = option('--data') ? path.resolve(option('--data')) : undefined;

const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json' };
function serve(req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  const rel = decodeURIComponent(url.pathname);
  let base = root;
  let sub = rel;
  if (rel.startsWith('/data/')) {
    base = dataDir;
    sub = rel.slice('/data'.length);
  }
  const file = base && path.resolve(base, '.' + sub);
  if (!file || !file.startsWith(base + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.statusCode = 404;
    res.end('not found');
    return;
  }
  res.setHeader('content-type', types[path.extname(file)] ?? 'application/octet-stream');
  fs.createReadStream(file).pipe(res);
}

function fail(message) {
  console.error(`browser gate: ${message}`);
  process.exit(2);
}

const server = http.createServer(serve);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.DXBC_WGSL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu-sandbox', '--enable-unsafe-webgpu', '--enable-features=Vulkan',
      '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
} catch (e) {
  fail(`cannot start Chromium: ${e.message.split('\n')[0]}`);
}
const page = await browser.newPage();
const consoleErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => consoleErrors.push(e.message));
await page.goto(`${origin}/tools/browser/page/index.html`);
try {
  await page.waitForFunction(() => window.gateReady === true, null, { timeout: 30000 });
} catch {
  fail(`the gate page did not load: ${consoleErrors.join('; ')}`);
}
let adapter;
try {
  adapter = await page.evaluate(() => window.gate.adapterInfo());
} catch (e) {
  fail(e.message.split('\n')[0]);
}

async function finish(result, ok) {
  await browser.close();
  server.close();
  process.exitCode = ok ? 0 : 1;
  if (result !== undefined) process.stdout.write(JSON.stringify({ adapter, ...result }) + '\n');
}

if (command === 'qualify') {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let batch = [];
  const flush = async () => {
    const out = await page.evaluate((b) => window.gate.qualify(b), batch);
    for (const r of out) process.stdout.write(JSON.stringify(r) + '\n');
    batch = [];
  };
  for await (const line of rl) {
    if (!line.trim()) continue;
    batch.push(JSON.parse(line));
    if (batch.length >= 64) await flush();
  }
  if (batch.length) await flush();
  await finish(undefined, true);
} else if (command === 'pipelines') {
  if (!dataDir) fail('pipelines needs --data DIR');
  const files = fs.readdirSync(dataDir).filter((f) => f.endsWith('.effect.json')).sort();
  const result = await page.evaluate((f) => window.gate.pipelines(f), files);
  const errors = result.report.flatMap((r) => r.errors).concat(result.uncaptured);
  await finish(result, errors.length === 0 && files.length > 0);
} else if (command === 'draw') {
  if (!dataDir || !option('--out')) fail('draw needs --data DIR --out FILE');
  const result = await page.evaluate((s) => window.gate.draw(s), option('--scene') ?? 'scene.json');
  fs.writeFileSync(option('--out'), Buffer.from(result.rgba, 'base64'));
  delete result.rgba;
  await finish(result, result.errors.length === 0);
} else if (command === 'example') {
  if (!dataDir) fail('example needs --data DIR');
  const result = await page.evaluate((f) => window.gate.example(f), 'basic_effect.effect.json');
  await finish(result, result.errors.length === 0);
} else {
  await browser.close();
  server.close();
  fail(`unknown command ${JSON.stringify(command)} (qualify, pipelines, draw, example)`);
}
