import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { embeddedDocumentModule, OPENAPI_DOCUMENT, stableJson } from '@bhis/web';
import { generateOpenApiDocument } from './testing/openapi-document';

const ROOT = resolve(__dirname, '../../..');
const GENERATED = [
  { file: 'apps/api/openapi.json', render: stableJson },
  { file: 'libs/web/src/generated/openapi-document.ts', render: embeddedDocumentModule },
];

function readOrEmpty(file: string): string {
  try {
    return readFileSync(resolve(ROOT, file), 'utf8');
  } catch {
    return '';
  }
}

describe('OpenAPI document', () => {
  it('the committed document is the one the code generates', async () => {
    const document = await generateOpenApiDocument();
    const stale: string[] = [];
    for (const { file, render } of GENERATED) {
      const text = render(document);
      if (process.env['UPDATE_OPENAPI'] === '1') writeFileSync(resolve(ROOT, file), text);
      else if (readOrEmpty(file) !== text) stale.push(file);
    }
    if (stale.length > 0) throw new Error(`${stale.join(' and ')} differ from the code's OpenAPI document: run npm run openapi`);
  });

  it('is generated the same way twice', async () => {
    expect(stableJson(await generateOpenApiDocument())).toBe(stableJson(await generateOpenApiDocument()));
  });

  it('the app serves the embedded copy', () => {
    if (process.env['UPDATE_OPENAPI'] === '1') return; // the copy loaded by this run predates the update
    expect(stableJson(OPENAPI_DOCUMENT)).toBe(readOrEmpty('apps/api/openapi.json'));
  });
});
