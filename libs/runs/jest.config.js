module.exports = { ...require('../../jest.preset.js'), displayName: 'runs', rootDir: __dirname };
