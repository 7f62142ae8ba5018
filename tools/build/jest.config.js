module.exports = { ...require('../../jest.preset.js'), displayName: 'build', rootDir: __dirname };
