// Maps the @bhis/* aliases of tsconfig.base.json to their sources for Jest.
const path = require('node:path');
const { compilerOptions } = require('../../tsconfig.base.json');

function pathsToModuleNameMapper() {
  const root = path.resolve(__dirname, '../..');
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace('/', '\\/')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { pathsToModuleNameMapper };
