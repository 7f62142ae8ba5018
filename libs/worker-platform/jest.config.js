module.exports = { ...require('../../jest.preset.js'), displayName: 'worker-platform', rootDir: __dirname };
