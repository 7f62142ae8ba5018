export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy with object keys in `keyOrder` (default: sorted), arrays untouched in order. */
export function sortKeys(value: JsonValue, keyOrder: (path: string[], keys: string[]) => string[] = (_, keys) => [...keys].sort(), path: string[] = []): JsonValue {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, keyOrder, path));
  if (!isJsonObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of keyOrder(path, Object.keys(value))) sorted[key] = sortKeys(value[key], keyOrder, [...path, key]);
  return sorted;
}

/** Two-space JSON with a final newline: the form every generated JSON file of the repository is written in. */
export function stableJson(value: JsonValue): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
