module.exports = { ...require('../../jest.preset.js'), displayName: 'ingest', rootDir: __dirname };
