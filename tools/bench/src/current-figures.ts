import type { BenchmarkFile, BenchmarkRun } from './results';

/**
 * One row of the current table that opens docs/benchmarks.md: a figure read from the latest run of one
 * scale, and the target it is held to. A new measurement is one more entry of `CURRENT_FIGURES`.
 */
export interface CurrentFigure {
  figure: string;
  /** the scale (percent of the city) whose latest run holds the figure */
  scale: number;
  target: string;
  /** the figure's value in that run, or null when the run did not measure it */
  value: (run: BenchmarkRun, file: BenchmarkFile) => string | null;
  /** an HTTP figure: its command and date are those of the HTTP measurement when it was made apart */
  http?: boolean;
}

const num = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const mb = (bytes: number): string => `${num(bytes / 1e6)} MB`;

function lookupP99(run: BenchmarkRun | undefined): number | null {
  return run?.http?.scenarios.find((s) => s.name === 'lookup')?.latencyP99Ms ?? null;
}

function toExpress(run: BenchmarkRun, answer: 'lookup' | 'unauthorized' | 'rateLimited'): string | null {
  const ratio = run.http?.toExpress?.[answer];
  if (ratio == null) return null;
  const rounds = run.http?.toExpressRounds?.[answer]?.rounds;
  return `${ratio}${rounds ? ` (median of ${rounds} paired rounds)` : ''}`;
}

export const CURRENT_FIGURES: CurrentFigure[] = [
  {
    figure: 'ingest of the whole city (130.5M rows), index builds included',
    scale: 100,
    target: '<= 60 min',
    value: ({ ingest: i }) => (i ? `${num(i.wallSeconds / 60)} min (${num(i.rowsPerSecond, 0)} rows/s)` : null),
  },
  {
    figure: 'the largest file against a raw COPY of it, in the city\'s ingest',
    scale: 100,
    target: '>= 0.15',
    value: (run) => (run.largestFileToCsvCopyRatio != null ? String(run.largestFileToCsvCopyRatio) : null),
  },
  {
    figure: 'first full scoring of the whole city, its switch included',
    scale: 100,
    target: '<= 10 min',
    value: ({ scoring: s }) => (s ? `${num(s.full.seconds)} s (${num(s.full.buildingsPerSecond, 0)} buildings/s, ${s.full.processes ?? 1} processes)` : null),
  },
  {
    figure: 'refresh of the whole city (~1% of its rows): ingest + rescoring',
    scale: 100,
    target: '<= 300 s',
    value: ({ refresh: r }) => (r ? `${num(r.ingestSeconds)} + ${num(r.scoring.seconds)} = ${num(r.totalSeconds)} s (${num(r.scoring.buildings, 0)} buildings rescored)` : null),
  },
  {
    figure: 'ingest worker peak RSS, whole city',
    scale: 100,
    target: '<= 1 GB',
    value: ({ ingest: i }) => (i && i.workerPeakRssBytes > 0 ? mb(i.workerPeakRssBytes) : null),
  },
  {
    figure: 'scoring worker peak RSS, whole city (full run / refresh)',
    scale: 100,
    target: '<= 1 GB',
    value: ({ scoring: s, refresh: r }) => (s ? `${mb(s.full.workerPeakRssBytes)}${r ? ` / ${mb(r.scoring.workerPeakRssBytes)}` : ''}` : null),
  },
  {
    figure: '`events` on disk per event, heap + TOAST + indexes, whole city',
    scale: 100,
    target: '<= 350 bytes',
    value: ({ storage: st }) => (st ? `${st.eventBytesPerRow} bytes (${num(st.eventBytes / 1e9)} GB for ${num(st.eventRows / 1e6)}M events)` : null),
  },
  {
    figure: 'the whole city\'s database',
    scale: 100,
    target: '<= 50 GB, <= 450 bytes per event',
    value: ({ storage: st }) => (st ? `${num(st.databaseBytes / 1e9)} GB, ${st.databaseBytesPerEvent} bytes per event` : null),
  },
  {
    figure: 'lookup p99 on the whole city, against the 1% city',
    scale: 100,
    target: '<= 1.2x the 1% p99',
    http: true,
    value: (run, file) => {
      const whole = lookupP99(run);
      const small = lookupP99(file.runs['1']);
      if (whole == null) return null;
      return `${whole} ms${small ? ` against ${small} ms: ${num(whole / small, 2)}x` : ''} (autocannon counts whole milliseconds)`;
    },
  },
  { figure: 'cached lookup / bare Express 5, whole city, same run', scale: 100, target: '>= 0.8', http: true, value: (run) => toExpress(run, 'lookup') },
  { figure: '401 / bare Express 5, whole city, same run', scale: 100, target: '>= 0.85', http: true, value: (run) => toExpress(run, 'unauthorized') },
  { figure: '429 / bare Express 5, whole city, same run', scale: 100, target: '>= 0.85', http: true, value: (run) => toExpress(run, 'rateLimited') },
  {
    figure: 'ingest of the 10% city',
    scale: 10,
    target: '>= 40,000 rows/s',
    value: ({ ingest: i }) => (i ? `${num(i.rowsPerSecond, 0)} rows/s (${num(i.wallSeconds)} s)` : null),
  },
  {
    figure: 'the largest file of the 10% city loaded alone, against a raw COPY of it',
    scale: 10,
    target: '>= 0.15',
    value: ({ largestFileAlone: a }) => (a?.csvCopyRatio != null ? String(a.csvCopyRatio) : null),
  },
  {
    figure: 'the 1% city refreshed by download, SODA JSON from a local Socrata stand-in (~1% of its rows): downloads + rescoring',
    scale: 1,
    target: 'none set (measured beside the refresh loaded as files)',
    value: ({ sodaRefresh: r, refresh: f }) =>
      r ? `${num(r.ingestSeconds)} + ${num(r.scoring.seconds)} = ${num(r.totalSeconds)} s (${num(r.rowsPerSecond, 0)} rows/s${f && f.ingestSeconds > 0 ? `; files: ${num(f.rows / f.ingestSeconds, 0)} rows/s` : ''})` : null,
  },
  {
    figure: 'the re-ingest of an unchanged whole-replace file (hpd_violations of the 1% city), against a raw COPY of it in the same run',
    scale: 1,
    target: '>= 0.25',
    value: ({ reingest: r }) => (r ? `${r.ratio} (${num(r.rowsPerSecond, 0)} against ${num(r.ceiling.rowsPerSecond, 0)} rows/s)` : null),
  },
];

/** Where and when a figure of `run` was measured: the HTTP measurement's own command and date when it was made apart. */
export function provenance(run: BenchmarkRun, http: boolean): { command: string; date: string } {
  if (http && run.httpKeptFrom) return { command: `an earlier run's HTTP, kept by \`${run.command}\``, date: run.httpKeptFrom.slice(0, 10) };
  if (http && run.httpCommand) return { command: `\`${run.httpCommand}\``, date: (run.httpAt ?? run.startedAt).slice(0, 10) };
  return { command: `\`${run.command}\``, date: run.startedAt.slice(0, 10) };
}
