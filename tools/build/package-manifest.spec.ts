import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { appDependencies, packageName, pruneLock, requiredPackages } from './package-manifest';

describe('packageName', () => {
  it('names the package of a bare specifier and ignores relative paths and built-ins', () => {
    expect(packageName('pg')).toBe('pg');
    expect(packageName('@nestjs/core/injector')).toBe('@nestjs/core');
    expect(packageName('swagger-ui-dist/package.json')).toBe('swagger-ui-dist');
    expect(packageName('./x')).toBeNull();
    expect(packageName('node:fs')).toBeNull();
    expect(packageName('crypto')).toBeNull();
  });
});

describe('requiredPackages', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'bhis-manifest-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('follows relative requires from the entry point and ignores files it never reaches', () => {
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'main.js'), `const a = require("./lib"); const fs = require("node:fs"); require('pg');`);
    writeFileSync(path.join(dir, 'lib', 'index.js'), `require("./more"); const ui = require.resolve('swagger-ui-dist/package.json');`);
    writeFileSync(path.join(dir, 'lib', 'more.js'), `require("@nestjs/core/injector"); require("./index");`);
    writeFileSync(path.join(dir, 'stale.js'), `require("left-pad");`);
    expect(requiredPackages(path.join(dir, 'main.js'))).toEqual(['@nestjs/core', 'pg', 'swagger-ui-dist']);
  });
});

const LOCK = {
  lockfileVersion: 3,
  packages: {
    '': { name: 'root', dependencies: { typeorm: '^1', pg: '^8', jest: '^30', express: '^5' } },
    'node_modules/typeorm': { version: '1.0.0', dependencies: { debug: '^4' }, peerDependencies: { pg: '^8', mysql2: '^3' }, peerDependenciesMeta: { pg: { optional: true }, mysql2: { optional: true } } },
    'node_modules/pg': { version: '8.0.0', dependencies: { 'pg-pool': '^3' }, optionalDependencies: { 'pg-cloudflare': '^1' } },
    'node_modules/pg-pool': { version: '3.0.0', peerDependencies: { pg: '>=8' } },
    'node_modules/pg-cloudflare': { version: '1.0.0', optional: true },
    'node_modules/debug': { version: '4.0.0', dependencies: { ms: '^2' }, dev: true },
    'node_modules/ms': { version: '2.1.0', dev: true },
    'node_modules/express': { version: '5.0.0', dependencies: { debug: '^3' } },
    'node_modules/express/node_modules/debug': { version: '3.0.0', dependencies: { ms: '^2.0' } },
    'node_modules/jest': { version: '30.0.0', dev: true, dependencies: { ms: '^2' } },
  },
};

describe('appDependencies', () => {
  const root = { dependencies: { typeorm: '^1', pg: '^8', express: '^5' } };

  it('adds the root dependencies that a needed package takes as peers', () => {
    expect(appDependencies(root, LOCK, ['typeorm'])).toEqual({ pg: '^8', typeorm: '^1' });
  });

  it('refuses a package the code requires but package.json does not declare', () => {
    expect(() => appDependencies(root, LOCK, ['typeorm', 'left-pad'])).toThrow('left-pad');
  });
});

describe('pruneLock', () => {
  const manifest = { name: 'bhis-x', version: '0.1.0', license: 'UNLICENSED', dependencies: { typeorm: '^1', pg: '^8', express: '^5' } };

  it('keeps exactly what npm installs for the dependencies, nested copies included, without dev flags', () => {
    const pruned = pruneLock(LOCK, manifest);
    expect(Object.keys(pruned.packages)).toEqual([
      '',
      'node_modules/debug',
      'node_modules/express',
      'node_modules/express/node_modules/debug',
      'node_modules/ms',
      'node_modules/pg',
      'node_modules/pg-cloudflare',
      'node_modules/pg-pool',
      'node_modules/typeorm',
    ]);
    expect(pruned.packages['']).toEqual({ name: 'bhis-x', version: '0.1.0', license: 'UNLICENSED', dependencies: manifest.dependencies });
    expect(pruned.packages['node_modules/debug']).toEqual({ version: '4.0.0', dependencies: { ms: '^2' } });
    expect(pruned.packages['node_modules/pg-cloudflare']).toEqual({ version: '1.0.0', optional: true });
    expect(pruned.packages['node_modules/pg']).not.toHaveProperty('optional');
  });

  it('fails on a required package the lock file does not hold', () => {
    expect(() => pruneLock(LOCK, { ...manifest, dependencies: { 'left-pad': '^1' } })).toThrow('left-pad');
  });
});
