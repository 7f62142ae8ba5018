// The whole suite: every project's jest.config.js. `npx jest --selectProjects <name>` runs one.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js', '<rootDir>/tools/*/jest.config.js'],
};
