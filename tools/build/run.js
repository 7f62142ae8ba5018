#!/usr/bin/env node
// Runs an app (or the CLI) from its build, rebuilding first when a TypeScript source is newer than
// the build. Usage: node tools/build/run.js <api|ingest|scoring|cli> [args...]
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const ENTRY = {
  api: 'dist/apps/api/apps/api/src/main.js',
  ingest: 'dist/apps/ingest/apps/ingest/src/main.js',
  scoring: 'dist/apps/scoring/apps/scoring/src/main.js',
  cli: 'dist/tools/cli/tools/cli/src/main.js',
};
const [name, ...args] = process.argv.slice(2);
if (!ENTRY[name]) {
  console.error(`usage: run.js <${Object.keys(ENTRY).join('|')}> [args...]`);
  process.exit(2);
}

function newestSource(dir, newest = 0) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(full, newest);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const entry = path.join(root, ENTRY[name]);
const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
const sources = Math.max(...['apps', 'libs', 'tools'].map((d) => newestSource(path.join(root, d))), fs.statSync(path.join(root, 'tsconfig.base.json')).mtimeMs);
if (sources > built) {
  process.stderr.write(`building ${name}...\n`);
  execFileSync(process.execPath, [path.join(__dirname, 'build-app.js'), name], { cwd: root, stdio: ['ignore', 2, 2] });
}
const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
