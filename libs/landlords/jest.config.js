module.exports = { ...require('../../jest.preset.js'), displayName: 'landlords', rootDir: __dirname };
