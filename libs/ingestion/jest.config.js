module.exports = { ...require('../../jest.preset.js'), displayName: 'ingestion', rootDir: __dirname };
