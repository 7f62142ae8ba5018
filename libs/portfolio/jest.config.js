module.exports = { ...require('../../jest.preset.js'), displayName: 'portfolio', rootDir: __dirname };
