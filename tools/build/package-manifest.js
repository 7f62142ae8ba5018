// The package.json and package-lock.json of one built app: only the npm packages its code requires,
// with the exact versions the repository's lock file resolved, so that `npm ci --omit=dev` in the
// build folder installs what the app runs with and nothing else.
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');

const BUILTINS = new Set(builtinModules);
const REQUIRE = /\brequire(?:\.resolve)?\(\s*(['"])([^'"]+)\1\s*\)/g;

/** The package a bare specifier names ('@scope/pkg/sub' -> '@scope/pkg'), or null for relative paths and built-ins. */
function packageName(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? null : name;
}

/** The packages required by `entry` and every file it requires relatively (compiled CommonJS). */
function requiredPackages(entry) {
  const seen = new Set();
  const packages = new Set();
  const pending = [path.resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const [, , specifier] of source.matchAll(REQUIRE)) {
      const name = packageName(specifier);
      if (name) packages.add(name);
      else if (specifier.startsWith('.')) pending.push(resolveRelative(path.dirname(file), specifier));
    }
  }
  return [...packages].sort();
}

function resolveRelative(dir, specifier) {
  const base = path.resolve(dir, specifier);
  for (const candidate of [base, `${base}.js`, `${base}.json`, path.join(base, 'index.js')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`cannot resolve ${specifier} from ${dir}`);
}

/**
 * The root dependencies an app needs: those it requires, plus the root dependencies that a needed
 * package declares as peers (libraries load some peers by name at run time: typeorm loads `pg`,
 * @nestjs/core loads @nestjs/platform-express).
 */
function appDependencies(rootManifest, lock, required) {
  const declared = rootManifest.dependencies ?? {};
  const missing = required.filter((name) => !(name in declared));
  if (missing.length > 0) throw new Error(`required but not in package.json dependencies: ${missing.join(', ')}`);
  const needed = new Set(required);
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...needed]) {
      const entry = lock.packages[`node_modules/${name}`] ?? {};
      for (const peer of Object.keys(entry.peerDependencies ?? {})) {
        if (peer in declared && !needed.has(peer)) {
          needed.add(peer);
          grew = true;
        }
      }
    }
  }
  return Object.fromEntries([...needed].sort().map((name) => [name, declared[name]]));
}

/** Where Node (and npm) find `name` when required from the package installed at `from` (a lock key). */
function resolveInLock(packages, from, name) {
  let dir = from;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[key]) return key;
    if (dir === '') return null;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/**
 * The lock file reduced to the packages reachable from `dependencies`: what npm installs for them
 * (dependencies, optional dependencies, required peers). Entries reachable only through optional
 * edges stay optional; dev flags are dropped, everything kept is a production dependency.
 */
function pruneLock(lock, manifest) {
  const packages = lock.packages;
  const reached = new Map(); // lock key -> true when reached through required edges only
  const visit = (from, name, optional) => {
    const key = resolveInLock(packages, from, name);
    if (key === null) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || 'the app'}) is not in the lock file`);
    }
    const wasRequired = reached.get(key);
    if (wasRequired === true || (wasRequired === false && optional)) return;
    reached.set(key, !optional);
    const entry = packages[key];
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(key, dep, optional);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(key, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) {
      if (!optionalPeers[dep]?.optional) visit(key, dep, optional);
    }
  };
  for (const name of Object.keys(manifest.dependencies)) visit('', name, false);

  const pruned = { '': { name: manifest.name, version: manifest.version, license: manifest.license, dependencies: manifest.dependencies } };
  for (const key of [...reached.keys()].sort()) {
    const { dev, devOptional, optional, peer, ...entry } = packages[key];
    pruned[key] = reached.get(key) ? entry : { ...entry, optional: true };
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: pruned };
}

/** package.json for an app whose entry point is `main` (relative to the build folder). */
function appManifest(rootManifest, { name, main, dependencies }) {
  return {
    name: `bhis-${name}`,
    version: rootManifest.version,
    private: true,
    description: `${rootManifest.description} (${name})`,
    license: rootManifest.license,
    engines: rootManifest.engines,
    main,
    scripts: { start: `node ${main}` },
    dependencies,
  };
}

module.exports = { packageName, requiredPackages, appDependencies, pruneLock, appManifest };
