#!/usr/bin/env node
// Builds @bhis/client into a folder `npm pack` / `npm publish` take as it is: the compiled library
// with its type declarations, libs/client/package.json with the versions of its dependencies taken
// from the root package.json (one place states a dependency's range), and its README.
// Usage: node tools/build/build-client.js [--out-dir <dir>]
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const [flag, dir] = process.argv.slice(2);
if (flag !== undefined && (flag !== '--out-dir' || !dir)) {
  console.error('usage: build-client.js [--out-dir <dir>]');
  process.exit(2);
}
const outDir = path.resolve(root, dir ?? 'dist/libs/client');
fs.rmSync(outDir, { recursive: true, force: true });
execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'libs/client/tsconfig.lib.json', '--outDir', outDir], { cwd: root, stdio: 'inherit' });

const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'libs/client/package.json'), 'utf8'));
for (const name of Object.keys(manifest.dependencies)) {
  const range = rootManifest.dependencies[name];
  if (!range) throw new Error(`${name} is not a dependency of the root package.json`);
  manifest.dependencies[name] = range;
}
// tsc emits no declaration file it was given: the types generated from the OpenAPI document are copied
fs.copyFileSync(path.join(root, 'libs/client/src/schema.d.ts'), path.join(outDir, 'schema.d.ts'));
fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
fs.copyFileSync(path.join(root, 'libs/client/README.md'), path.join(outDir, 'README.md'));
console.log(`@bhis/client ${manifest.version} built in ${path.relative(root, outDir)}`);
