module.exports = { ...require('../../jest.preset.js'), displayName: 'queue', rootDir: __dirname };
