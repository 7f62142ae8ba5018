// Builds the API and both workers once before the end-to-end suite (they run from their builds).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function buildApps() {
  const root = path.resolve(__dirname, '../../../..');
  for (const app of ['api', 'ingest', 'scoring']) {
    execFileSync(process.execPath, [path.join(root, 'tools/build/build-app.js'), app], { cwd: root, stdio: 'inherit' });
  }
};
