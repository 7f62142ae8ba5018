#!/usr/bin/env node
// Builds one app (or the CLI) into a folder that deploys on its own: tsc, the @bhis/* aliases
// rewritten to relative paths, and a package.json + package-lock.json holding only the npm packages
// the app requires (tools/build/package-manifest.js). `npm ci --omit=dev` in that folder gives a
// runnable app; `npm start` runs it.
// Usage: node tools/build/build-app.js <api|ingest|scoring|cli> [--out-dir <dir>]
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { appDependencies, appManifest, pruneLock, requiredPackages } = require('./package-manifest');

/** tsconfig and entry point (relative to the build folder) of each project. */
const PROJECTS = {
  api: { tsconfig: 'apps/api/tsconfig.app.json', outDir: 'dist/apps/api', main: 'apps/api/src/main.js' },
  ingest: { tsconfig: 'apps/ingest/tsconfig.app.json', outDir: 'dist/apps/ingest', main: 'apps/ingest/src/main.js' },
  scoring: { tsconfig: 'apps/scoring/tsconfig.app.json', outDir: 'dist/apps/scoring', main: 'apps/scoring/src/main.js' },
  cli: { tsconfig: 'tools/cli/tsconfig.app.json', outDir: 'dist/tools/cli', main: 'tools/cli/src/main.js' },
};

const [name, flag, dir] = process.argv.slice(2);
const project = PROJECTS[name];
if (!project || (flag !== undefined && (flag !== '--out-dir' || !dir))) {
  console.error(`usage: build-app.js <${Object.keys(PROJECTS).join('|')}> [--out-dir <dir>]`);
  process.exit(2);
}
const root = path.resolve(__dirname, '../..');
const outDir = path.resolve(root, dir ?? project.outDir);
const bin = (tool) => path.join(root, 'node_modules', '.bin', tool);
execFileSync(bin('tsc'), ['-p', project.tsconfig, '--outDir', outDir], { cwd: root, stdio: 'inherit' });
execFileSync(bin('tsc-alias'), ['-p', project.tsconfig, '--outDir', outDir], { cwd: root, stdio: 'inherit' });

const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const required = requiredPackages(path.join(outDir, project.main));
const manifest = appManifest(rootManifest, { name, main: project.main, dependencies: appDependencies(rootManifest, lock, required) });
fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
fs.writeFileSync(path.join(outDir, 'package-lock.json'), `${JSON.stringify(pruneLock(lock, manifest), null, 2)}\n`);
fs.copyFileSync(path.join(root, '.npmrc'), path.join(outDir, '.npmrc'));
