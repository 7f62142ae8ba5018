// Shared Jest settings: SWC transform (with decorator metadata for Nest), @bhis/* aliases from tsconfig.
const { pathsToModuleNameMapper } = require('./tools/jest/paths');
const swcOptions = require('./tools/jest/swc-options');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(),
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  setupFilesAfterEnv: [require.resolve('./tools/jest/timeout.js')],
};
