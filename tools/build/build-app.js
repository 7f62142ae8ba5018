#!/usr/bin/env node
// Builds one app (or the CLI) with tsc, then rewrites the @bhis/* aliases to relative paths so that
// the output runs with plain `node`. Usage: node tools/build/build-app.js <api|ingest|scoring|cli>
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const PROJECTS = {
  api: 'apps/api/tsconfig.app.json',
  ingest: 'apps/ingest/tsconfig.app.json',
  scoring: 'apps/scoring/tsconfig.app.json',
  cli: 'tools/cli/tsconfig.app.json',
};

const name = process.argv[2];
const tsconfig = PROJECTS[name];
if (!tsconfig) {
  console.error(`usage: build-app.js <${Object.keys(PROJECTS).join('|')}>`);
  process.exit(2);
}
const root = path.resolve(__dirname, '../..');
const bin = (tool) => path.join(root, 'node_modules', '.bin', tool);
execFileSync(bin('tsc'), ['-p', tsconfig], { cwd: root, stdio: 'inherit' });
execFileSync(bin('tsc-alias'), ['-p', tsconfig], { cwd: root, stdio: 'inherit' });
