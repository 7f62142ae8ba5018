module.exports = { ...require('../../jest.preset.js'), displayName: 'sources', rootDir: __dirname };
