module.exports = { ...require('../../jest.preset.js'), displayName: 'scoring-model', rootDir: __dirname };
