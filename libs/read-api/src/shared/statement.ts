import { createHash } from 'node:crypto';

/** Collects the values of a statement built from fragments and hands out their `$n` placeholders. */
export class StatementValues {
  readonly values: unknown[] = [];

  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/**
 * A named (prepared) statement: the name is derived from the text, so each shape of a dynamic query is
 * parsed and planned once per connection and equal texts share one name.
 */
export function namedStatement(prefix: string, text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  return { name: `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values };
}

/** Escapes LIKE wildcards so user text matches literally (the default escape character is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
