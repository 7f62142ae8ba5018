/** No request body of this API nests deeper; deeper bodies would only exhaust the validators' stack. */
export const MAX_JSON_DEPTH = 64;

/** Nesting depth of a parsed JSON value, walked iteratively (a recursive walk could overflow itself). */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
