module.exports = { ...require('../../jest.preset.js'), displayName: 'score-runner', rootDir: __dirname };
