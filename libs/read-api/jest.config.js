module.exports = { ...require('../../jest.preset.js'), displayName: 'read-api', rootDir: __dirname };
