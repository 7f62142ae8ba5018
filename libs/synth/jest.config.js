module.exports = { ...require('../../jest.preset.js'), displayName: 'synth', rootDir: __dirname };
