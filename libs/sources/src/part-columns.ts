import { headerKey, normalizeHeaderName } from './header';

/** What a source part declares of its headers (definition.ts `SourcePart`). */
export interface DeclaredHeaders {
  readonly header: readonly string[];
  readonly headerVariants: readonly (readonly string[])[];
  readonly aliases: Readonly<Record<string, string>>;
}

function exactly(names: readonly string[], name: string): number {
  return names.findIndex((candidate) => normalizeHeaderName(candidate) === normalizeHeaderName(name));
}

function byKey(names: readonly string[], name: string): number {
  const hits = names.flatMap((candidate, i) => (headerKey(candidate) === headerKey(name) ? [i] : []));
  return hits.length === 1 ? hits[0] : -1;
}

/**
 * The canonical column a declared name maps to, exact spellings first: an alias of that name, the
 * current header's column of that name, then the same by normalised name; else the name itself.
 */
export function canonicalColumn(part: Pick<DeclaredHeaders, 'aliases' | 'header'>, name: string): string {
  const aliased = Object.keys(part.aliases);
  const viaCurrent = (i: number) => {
    const current = part.header[i];
    const alias = exactly(aliased, current);
    return alias !== -1 ? part.aliases[aliased[alias]] : normalizeHeaderName(current);
  };
  let i = exactly(aliased, name);
  if (i !== -1) return part.aliases[aliased[i]];
  i = exactly(part.header, name);
  if (i !== -1) return viaCurrent(i);
  i = byKey(aliased, name);
  if (i !== -1) return part.aliases[aliased[i]];
  i = byKey(part.header, name);
  return i !== -1 ? viaCurrent(i) : normalizeHeaderName(name);
}

const COLUMNS = new WeakMap<object, string[]>();

/** Every canonical column any declared header of the part can carry, current header first. */
export function partColumns(part: DeclaredHeaders): string[] {
  const cached = COLUMNS.get(part);
  if (cached) return cached;
  const columns = new Set<string>();
  for (const header of [part.header, ...part.headerVariants]) for (const name of header) columns.add(canonicalColumn(part, name));
  COLUMNS.set(part, [...columns]);
  return [...columns];
}

/** Problems of a declared header: two names of it that normalise or alias to the same column. */
export function ambiguousColumns(part: Pick<DeclaredHeaders, 'aliases' | 'header'>, header: readonly string[]): string[] {
  const trimmed = header.map(normalizeHeaderName);
  const problems = trimmed.filter((name, i) => trimmed.indexOf(name) !== i).map((name) => `${name} twice`);
  const seen = new Map<string, string>();
  for (const name of header) {
    const column = canonicalColumn(part, name);
    const first = seen.get(column);
    if (first !== undefined && normalizeHeaderName(first) !== normalizeHeaderName(name)) problems.push(`${first} / ${normalizeHeaderName(name)} -> ${column}`);
    else seen.set(column, name);
  }
  return problems;
}
