// Loaded with --require: at exit, writes V8's heap spaces (name, size in bytes) as JSON to the
// file named by HEAP_SPACES_FILE.
const { writeFileSync } = require('node:fs');
const { getHeapSpaceStatistics } = require('node:v8');

process.on('exit', () => {
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
  if (process.env.HEAP_SPACES_FILE) writeFileSync(process.env.HEAP_SPACES_FILE, JSON.stringify(spaces));
});
