module.exports = { ...require('../../jest.preset.js'), displayName: 'client', rootDir: __dirname };
