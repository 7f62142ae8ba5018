#!/usr/bin/env node
// Lints apps/api/openapi.json with Spectral (spectral:oas + OWASP, .spectral.yaml) and Redocly
// (recommended, redocly.yaml). Fails on any error or warning: a warning is either fixed or explained
// and disabled in the ruleset file. Both tools run offline (no telemetry, no update check).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const bin = (tool) => path.join(root, 'node_modules', '.bin', tool);
const DOCUMENT = 'apps/api/openapi.json';
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

function run(name, tool, args) {
  const result = spawnSync(bin(tool), args, { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/^.*[║╔╚].*\n?/gm, '');
  return { name, ok: result.status === 0, output: output.trim() };
}

const results = [
  run('spectral', 'spectral', ['lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', '--format', 'text']),
  run('redocly', 'redocly', ['lint', DOCUMENT, '--config', 'redocly.yaml', '--max-problems', '100']),
];
// Redocly exits 0 on warnings: count them from its summary
const redocly = results[1];
if (redocly.ok && /You have \d+ warnings?/.test(redocly.output)) redocly.ok = false;

for (const { name, ok, output } of results) process.stdout.write(`== ${name}: ${ok ? 'clean' : 'PROBLEMS'}\n${ok ? '' : `${output}\n`}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
