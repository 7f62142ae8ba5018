import { toJsonSchema2020 } from './openapi-3-1';

describe('toJsonSchema2020', () => {
  it('turns nullable into a null type, keeping enums consistent', () => {
    expect(toJsonSchema2020({ type: 'string', nullable: true, enum: ['open', 'closed'] })).toEqual({ type: ['string', 'null'], enum: ['open', 'closed', null] });
  });

  it('turns a nullable model reference into oneOf with null', () => {
    expect(toJsonSchema2020({ nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/X' }] })).toEqual({
      oneOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
  });

  it('moves example to examples and gives integers a format, in nested schemas too', () => {
    expect(toJsonSchema2020({ type: 'object', properties: { n: { type: 'integer', example: 3 } }, items: { type: 'string', example: 'a' } })).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', format: 'int32', examples: [3] } },
      items: { type: 'string', examples: ['a'] },
    });
  });
});
