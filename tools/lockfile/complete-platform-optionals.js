#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional binaries of other platforms
// (@swc/core-darwin-arm64, @nx/nx-win32-x64-msvc, ...). The package registry available to this
// project serves only the linux-x64 builds, so npm cannot record the others, and `npm ci` then
// refuses the lock file as "out of sync". The added entries carry os/cpu, so npm never tries to
// install them on a platform they are not for. Run after `npm install`:
//   node tools/lockfile/complete-platform-optionals.js
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '../../package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'sunos', 'aix', 'netbsd', 'wasm32'];
const CPU = { x64: 'x64', arm64: 'arm64', arm: 'arm', ia32: 'ia32', ppc64: 'ppc64', ppc64le: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', wasm32: 'wasm32', universal: null };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuPart = parts.find((p) => p in CPU);
  if (!os && !cpuPart) return null;
  const result = {};
  if (os && os !== 'wasm32') result.os = [os];
  if (cpuPart && CPU[cpuPart]) result.cpu = [CPU[cpuPart]];
  if (parts.includes('musl')) result.libc = ['musl'];
  else if (parts.includes('gnu') || parts.includes('gnueabihf')) result.libc = ['glibc'];
  return result;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`;
    const nested = `${location}/node_modules/${dep}`;
    if (packages[target] || packages[nested]) continue;
    const platform = platformOf(dep);
    const version = /^\d+\.\d+\.\d+/.exec(range)?.[0];
    if (!platform || !version) continue;
    packages[target] = { version, optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`added ${added} platform entries\n`);
