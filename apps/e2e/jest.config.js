// End-to-end tests: the built apps run as real processes; they are built once before the suite.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'e2e',
  rootDir: __dirname,
  globalSetup: '<rootDir>/src/support/build-apps.js',
};
