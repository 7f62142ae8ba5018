import { CONFIDENCE_FLAG_SLUGS, FLAG_LABELS, SCORE_FLAG_SLUGS } from '@bhis/scoring';
import { OPENAPI_DOCUMENT } from '../generated/openapi-document';
import { renderApiDocs } from '../reference/api-docs-markdown';
import type { JsonObject } from './json';

type Schema = { properties?: Record<string, { description?: string }> };

describe('the flags in the OpenAPI document', () => {
  const schemas = (OPENAPI_DOCUMENT as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;

  it.each([
    ['ScoresDto', SCORE_FLAG_SLUGS],
    ['ConfidenceDto', CONFIDENCE_FLAG_SLUGS],
  ])('%s.flags describes each flag with its label from the one table', (schema, slugs) => {
    const description = schemas[schema].properties?.['flags']?.description ?? '';
    for (const slug of slugs) expect(description).toContain(`\`${slug}\`: **${FLAG_LABELS[slug].label}.** ${FLAG_LABELS[slug].explanation}`);
  });
});

describe('the flags in api-docs.md', () => {
  it('lists every flag with its label, from the OpenAPI document', () => {
    const markdown = renderApiDocs(OPENAPI_DOCUMENT as unknown as JsonObject, 'https://example.org');
    const section = markdown.slice(markdown.indexOf('## Flags'), markdown.indexOf('## Errors'));
    for (const slug of [...SCORE_FLAG_SLUGS, ...CONFIDENCE_FLAG_SLUGS]) expect(section).toContain(`- \`${slug}\`: **${FLAG_LABELS[slug].label}.**`);
  });
});
