// Loaded with --import: at exit, writes every module the process loaded (ES modules and CommonJS)
// to the file named by TRACE_MODULES_FILE, one path a line.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.TRACE_MODULES_FILE;
const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('./trace-modules-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  if (file) writeFileSync(file, [...seen, ...cjs].join('\n'));
});
