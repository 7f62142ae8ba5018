// Lets a child process started by a test run TypeScript sources with the workspace's @bhis/* aliases
// (the same SWC settings as Jest). Usage: node -r tools/jest/register-ts.js script.ts; a thread: require() it first (libs/ingestion/src/staging-thread-pool.ts)
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');
const swcOptions = require('./swc-options');
const root = path.resolve(__dirname, '../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));

const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { filename, ...swcOptions });
  module._compile(code, filename);
};
