module.exports = { ...require('../../jest.preset.js'), displayName: 'api-platform', rootDir: __dirname };
