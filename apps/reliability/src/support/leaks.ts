import os from 'node:os';

/** What a response body must never contain: stack traces, SQL, Postgres errors, internal addresses. */
const LEAKS: { what: string; pattern: RegExp }[] = [
  { what: 'stack trace', pattern: /\bat [\w$.<>[\]\s]+ \([^)]*:\d+:\d+\)|\n\s+at [^\n]+:\d+:\d+/ },
  { what: 'SQL statement', pattern: /\b(?:SELECT\b[\s\S]{0,300}\bFROM|INSERT INTO|UPDATE\s+\w+\s+SET|DELETE FROM|CREATE TABLE|DROP TABLE)\b/ },
  {
    what: 'database error',
    pattern: /syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|relation "[^"]+" does not exist|column "[^"]+" does not exist|invalid input syntax for|QueryFailedError|SQLSTATE|pg_catalog|ECONNREFUSED|ETIMEDOUT/,
  },
  { what: 'internal address', pattern: /postgres(?:ql)?:\/\/|redis:\/\/|:5432\b|:6379\b/ },
];

const hostname = os.hostname();
if (hostname.length >= 6 && hostname !== 'localhost') LEAKS.push({ what: 'host name', pattern: new RegExp(hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

/** The first leak found in a body, or null. */
export function findLeak(body: string): { what: string; excerpt: string } | null {
  for (const leak of LEAKS) {
    const match = leak.pattern.exec(body);
    if (match) return { what: leak.what, excerpt: body.slice(Math.max(0, match.index - 80), match.index + 160) };
  }
  return null;
}
