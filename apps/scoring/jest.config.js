module.exports = { ...require('../../jest.preset.js'), displayName: 'scoring', rootDir: __dirname };
