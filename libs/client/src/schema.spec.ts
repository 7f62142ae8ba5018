import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiBaseUrl } from './index';

const ROOT = resolve(__dirname, '../../..');
const SCHEMA = resolve(__dirname, 'schema.d.ts');

/** What openapi-typescript makes of the committed document. */
function generateSchema(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bhis-client-'));
  try {
    const out = join(dir, 'schema.d.ts');
    execFileSync(join(ROOT, 'node_modules/.bin/openapi-typescript'), ['apps/api/openapi.json', '--output', out], { cwd: ROOT, stdio: 'pipe' });
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('@bhis/client', () => {
  it('schema.d.ts is generated from apps/api/openapi.json', () => {
    const generated = generateSchema();
    if (process.env['UPDATE_OPENAPI'] === '1') writeFileSync(SCHEMA, generated);
    if (readFileSync(SCHEMA, 'utf8') !== generated) {
      throw new Error('libs/client/src/schema.d.ts differs from the OpenAPI document: run npm run openapi');
    }
  }, 30_000);

  it('accepts the API base URL or the site root', () => {
    expect(apiBaseUrl('https://bhis.example/api/v1/')).toBe('https://bhis.example/api/v1');
    expect(apiBaseUrl('https://bhis.example')).toBe('https://bhis.example/api/v1');
  });
});
