// Builds the API, both workers and the CLI once before the reliability suite (they run from their builds).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function buildApps() {
  const root = path.resolve(__dirname, '../../../..');
  for (const app of ['api', 'ingest', 'scoring', 'cli']) {
    execFileSync(process.execPath, [path.join(root, 'tools/build/build-app.js'), app], { cwd: root, stdio: 'inherit' });
  }
};
