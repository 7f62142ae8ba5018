// Shared Jest settings: SWC transform (with decorator metadata for Nest), @bhis/* aliases from tsconfig.
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(),
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  setupFilesAfterEnv: [require.resolve('./tools/jest/timeout.js')],
};
