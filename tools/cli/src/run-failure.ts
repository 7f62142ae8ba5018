import type { IngestRunRow } from '@bhis/runs';

const WIDTH = 100;

/** Names as lines of at most WIDTH characters, each indented. */
function wrapList(names: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line ? `${line}, ${name}` : name;
    if (line && indent.length + next.length > WIDTH) {
      lines.push(`${indent}${line},`);
      line = name;
    } else line = next;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines.join('\n');
}

function wrapText(text: string, indent: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines.join('\n');
}

interface HeaderDetail {
  source: string;
  part: string;
  missing_columns: string[];
  unexpected_columns: string[];
  closest_source: { source: string; part: string; matched: number; columns: number } | null;
}

function isHeaderDetail(detail: unknown): detail is HeaderDetail {
  const d = detail as Partial<HeaderDetail> | null;
  return Array.isArray(d?.missing_columns) && Array.isArray(d?.unexpected_columns);
}

/**
 * A failed (or cancelled) run's error as a block: a wrong file's missing and unexpected columns one
 * list each, and the source the file matches best; any other error's message wrapped.
 */
export function runFailureText(run: Pick<IngestRunRow, 'id' | 'source' | 'status' | 'error' | 'error_detail'>): string {
  const head = `Run ${run.id} of ${run.source} ${run.status}:`;
  const detail = run.error_detail;
  if (!isHeaderDetail(detail)) return `${head}\n${wrapText(run.error ?? 'no message', '  ')}`;
  const lines = [wrapText(`${head} the file's header is not one of ${detail.source} (${detail.part}).`, '')];
  if (detail.missing_columns.length > 0) lines.push(`  Missing columns (${detail.missing_columns.length}):`, wrapList(detail.missing_columns, '    '));
  if (detail.unexpected_columns.length > 0) lines.push(`  Unexpected columns (${detail.unexpected_columns.length}):`, wrapList(detail.unexpected_columns, '    '));
  const closest = detail.closest_source;
  lines.push(
    wrapText(
      closest
        ? `The file looks like one of ${closest.source} (${closest.part}: ${closest.matched} of its ${closest.columns} columns): load it with --source ${closest.source}.`
        : "Its header is not near any source's either: check that it is the city's CSV export of this source.",
      '  ',
    ),
  );
  return lines.join('\n');
}
