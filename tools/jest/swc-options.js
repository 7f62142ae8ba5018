// The SWC settings TypeScript sources are compiled with under Jest (jest.preset.js) and in the child
// processes and threads tests start (register-ts.js): decorator metadata for Nest.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
