// Reliability tests: fuzzing, faults (kill -9, Redis and Postgres restarts), two instances of every
// app, and a soak, against the built apps running as real processes. Not part of `npm test` (the root
// Jest configuration only collects */jest.config.js): run `npm run test:reliability` (full) or
// `npm run test:reliability:ci` (reduced: REL_MODE=ci). The apps and the CLI are built once first.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'reliability',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.rel-spec.ts'],
  globalSetup: '<rootDir>/src/support/build-apps.js',
  testTimeout: 900_000,
  slowTestThreshold: 60,
};
