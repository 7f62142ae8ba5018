import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { MODE } from './mode';
import { repoRoot } from '@bhis/testing';

/** Appends one line of measured results (JSON) to tmp/reliability/results-<mode>.jsonl, and logs it. */
export function recordResult(test: string, values: Record<string, unknown>): void {
  const dir = path.join(repoRoot(), 'tmp', 'reliability');
  mkdirSync(dir, { recursive: true });
  const line = JSON.stringify({ test, mode: MODE, at: new Date().toISOString(), ...values });
  appendFileSync(path.join(dir, `results-${MODE}.jsonl`), `${line}\n`);
  process.stdout.write(`${line}\n`);
}
