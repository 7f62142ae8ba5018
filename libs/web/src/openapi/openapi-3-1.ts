import { isJsonObject, JsonObject, JsonValue } from './json';

const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'] as const;
const SUBSCHEMA_SINGLE = ['items', 'not', 'additionalProperties'] as const;

/**
 * Rewrites one schema (and its subschemas) from the OpenAPI 3.0 dialect @nestjs/swagger emits to
 * JSON Schema 2020-12 as OpenAPI 3.1 uses it: `nullable` becomes a `null` type, `example` becomes `examples`.
 */
export function toJsonSchema2020(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isJsonObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema2020(sub)]));
    } else if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map(toJsonSchema2020);
    } else if ((SUBSCHEMA_SINGLE as readonly string[]).includes(key)) {
      out[key] = toJsonSchema2020(value);
    } else if (key !== 'nullable' && key !== 'example') {
      out[key] = value;
    }
  }
  if ('example' in schema && !('examples' in schema)) out['examples'] = [schema['example']];
  // every integer of this API (scores, counts, units, limits) fits 32 bits; say so for typed clients
  if (schema['type'] === 'integer' && !('format' in schema)) out['format'] = 'int32';
  return schema['nullable'] === true ? withNull(out) : out;
}

function withNull(schema: JsonObject): JsonObject {
  const composed = schema['allOf'];
  if (Array.isArray(composed) && composed.length === 1) {
    // `{ nullable, allOf: [$ref] }` is how @nestjs/swagger writes an optional reference to a model
    const { allOf: _allOf, type: _type, ...rest } = schema;
    return { ...rest, oneOf: [composed[0], { type: 'null' }] };
  }
  const type = schema['type'];
  if (typeof type === 'string') {
    const enumValues = schema['enum'];
    return {
      ...schema,
      type: [type, 'null'],
      ...(Array.isArray(enumValues) && !enumValues.includes(null) ? { enum: [...enumValues, null] } : {}),
    };
  }
  if ('$ref' in schema) {
    const { $ref, ...rest } = schema;
    return { ...rest, oneOf: [{ $ref }, { type: 'null' }] };
  }
  return schema;
}
