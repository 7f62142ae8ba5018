import { CONFIDENCE_FLAG_SLUGS, FLAG_LABELS, SCORE_FLAG_SLUGS } from '@bhis/scoring';
import { OPENAPI_DOCUMENT } from '../generated/openapi-document';

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
