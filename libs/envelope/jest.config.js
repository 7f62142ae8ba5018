module.exports = { ...require('../../jest.preset.js'), displayName: 'envelope', rootDir: __dirname };
