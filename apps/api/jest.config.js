module.exports = { ...require('../../jest.preset.js'), displayName: 'api', rootDir: __dirname };
