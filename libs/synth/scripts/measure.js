#!/usr/bin/env node
// Measures synthetic city generation speed without a build step: TypeScript sources are compiled on
// the fly with @swc/core and the @bhis/* aliases of tsconfig.base.json are resolved to their sources.
// Usage: node libs/synth/scripts/measure.js [buildings=4450] [seed=1] [outDir]
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]));
aliases['@bhis/synth'] = aliases['@bhis/synth'] ?? path.join(root, 'libs/synth/src/index.ts');

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const { measureGeneration } = require(path.join(root, 'libs/synth/src/measure.ts'));
const buildings = Number(process.argv[2] ?? 4450);
const seed = process.argv[3] ?? 1;
const outDir = process.argv[4];

measureGeneration(buildings, Number.isNaN(Number(seed)) ? seed : Number(seed), outDir).then((m) => {
  const r = m.report;
  console.log(`buildings ${r.buildings} (lots ${r.lots}), as of ${r.asOf}, history from ${r.historyStart}`);
  console.log(`${m.seconds.toFixed(1)} s, ${r.totalRows.toLocaleString('en-US')} rows (${Math.round(m.rowsPerSecond).toLocaleString('en-US')} rows/s), ${(r.totalBytes / 1e6).toFixed(1)} MB (${m.megabytesPerSecond.toFixed(1)} MB/s)`);
  const d = r.eventsPerBuilding;
  console.log(`event rows ${r.eventRows.toLocaleString('en-US')}: per building mean ${d.mean.toFixed(1)}, median ${d.median}, p99 ${d.p99}, max ${d.max}, ${d.atLeast10000} buildings with 10,000+`);
  console.log(`full city (445,000 buildings) estimate: ${(m.fullCity.seconds / 60).toFixed(0)} min, ${m.fullCity.rows.toLocaleString('en-US')} rows, ${m.fullCity.gigabytes.toFixed(1)} GB`);
  console.log('file | rows | MB');
  for (const f of r.files) console.log(`${f.file} | ${f.rows.toLocaleString('en-US')} | ${(f.bytes / 1e6).toFixed(2)}`);
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
