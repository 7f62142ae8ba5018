import type { CopyCeiling, CsvCopyCeiling, EventStorage, TableSize } from './database';
import type { IngestResult } from './data-setup';
import type { HttpBenchmark } from './http/run-http';
import { CURRENT_FIGURES, provenance } from './current-figures';
import type { UnitCosts } from './http/unit-costs';
import type { BenchmarkFile, BenchmarkRun, LargestFileAlone } from './results';
import type { RefreshResult } from './refresh';
import type { SodaRefreshResult } from './soda-refresh';
import type { Reingest } from './reingest';
import type { ScaleOutResult } from './scale-out';
import type { SearchScalingResult } from './search-scaling/search-scaling';

const FULL_CITY_BUILDINGS = 445_000;

const mb = (bytes: number): string => (bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 });
const num = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function runFacts(run: BenchmarkRun): string {
  const m = run.machine;
  return [
    `- Date: ${run.startedAt} to ${run.finishedAt}`,
    `- Command: \`${run.command}\`${run.commit ? ` at ${run.commit}` : ''}`,
    `- Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.kernel}; Node ${m.node}, PostgreSQL ${m.postgres}, Redis ${m.redis}`,
    `- Load average when the run started: ${run.loadAverageAtStart.join(' / ')}${run.loadAverageAtEnd ? `, when it ended: ${run.loadAverageAtEnd.join(' / ')}` : ''} (other work shared the machine: treat the numbers as lower bounds)`,
    `- Data: \`${run.city.generationCommand}\` — ${run.city.files} files, ${num(run.city.rows)} rows (${num(run.city.eventRows)} event rows), ${mb(run.city.bytes)} MB of CSV; ` +
      `events per building: median ${run.city.eventsPerBuilding.median}, p99 ${run.city.eventsPerBuilding.p99}, max ${num(run.city.eventsPerBuilding.max)}; generated in ${run.city.generationSeconds} s`,
    `- Database: \`${run.database}\` (fresh, migrated)`,
  ].join('\n');
}

/** Where the CPU of the ingest went: the worker (parse, map, encode) and Postgres (COPY, merge, indexes). */
function cpuSentence(i: IngestResult): string {
  if (!i.cpu || i.rows === 0) return '';
  const us = (seconds: number) => num(Math.round((seconds * 1e6) / i.rows));
  return (
    ` CPU during the ingest: ingest worker ${i.cpu.workerSeconds} s (${us(i.cpu.workerSeconds)} us per row), Postgres ${i.cpu.postgresSeconds} s ` +
    `(${us(i.cpu.postgresSeconds)} us per row), against ${num(Math.round(i.wallSeconds * 2))} s of two cores' wall time.`
  );
}

/** What Postgres wrote during the ingest, and the settings that decide it. */
function writesSentence(i: IngestResult): string {
  const w = i.postgresWrites;
  if (!w) return '';
  const settings = Object.entries(w.settings).map(([name, value]) => `${name} ${value}`).join(', ');
  return (
    ` Postgres wrote ${num(Math.round(w.walBytes / 1e6))} MB of WAL (${num(w.walFullPageImages)} full-page images) during the ingest, ` +
    `with ${w.checkpointsRequested} checkpoints forced by WAL volume and ${w.checkpointsTimed} timed; ` +
    `${num(w.buffersWrittenByBackends)} pages written by the backends themselves, ${num(w.buffersWrittenByCheckpoints)} by checkpoints (settings: ${settings}).`
  );
}

/** What the seconds of each file count. */
function fileSecondsSentence(i: IngestResult): string {
  return i.fileSecondsToCommit
    ? ' Seconds per file: from the start of its run to the commit of its merge (its wait for the merge lock included).'
    : ' Seconds per file: from the start of its run to the start of its merge transaction, its staging alone (a run recorded before runs ended at the commit of their last transaction, libs/runs/src/run-duration.ts).';
}

function ingestParts(i: IngestResult): string[] {
  return [
    '### Ingest (the real ingest worker)',
    `\`${i.command}\`: **${num(i.rows)} rows, ${mb(i.bytes)} MB in ${num(i.wallSeconds)} s = ${num(i.rowsPerSecond)} rows/s, ${i.megabytesPerSecond} MB/s** ` +
      `(wall time, queueing included). Ingest worker peak RSS: ${i.workerPeakRssBytes > 0 ? `${mb(i.workerPeakRssBytes)} MB` : 'not measured (ingest figures read back from ingest_runs)'} (largest file: ${i.largestFile}).` +
      cpuSentence(i) +
      writesSentence(i) +
      fileSecondsSentence(i),
    table(
      ['source', 'file', 'rows', 'MB', 'seconds', 'rows/s', 'MB/s'],
      [...i.perSource].sort((a, b) => b.bytes - a.bytes).map((s) => [s.source, s.file, num(s.rows), mb(s.bytes), s.seconds, num(s.rowsPerSecond), s.megabytesPerSecond]),
    ),
  ];
}

function csvCeilingParts(run: BenchmarkRun, c: CsvCopyCeiling): string[] {
  const largest = run.ingest?.perSource.find((s) => s.file === run.ingest?.largestFile);
  return [
    '### Ceiling: raw COPY of the largest file',
    `\`COPY ... FROM STDIN (FORMAT csv, HEADER true)\` of ${c.firstRowsOnly ? `the first ${num(c.rows)} rows of ` : ''}${c.file.split('/').pop()} as it is (${mb(c.bytes)} MB on disk) into an UNLOGGED table of text columns, ` +
      `right after the ingest: **${num(c.rows)} rows in ${num(c.seconds)} s = ${num(c.rowsPerSecond)} rows/s**. ` +
      (largest && run.largestFileToCsvCopyRatio != null
        ? `The ingest of the same file ran at ${num(largest.rowsPerSecond)} rows/s${run.ingest?.fileSecondsToCommit ? '' : ' (its staging alone)'}: **${(run.largestFileToCsvCopyRatio * 100).toFixed(1)}%** of this ceiling` +
          (run.largestFileToCsvCopyRatio != null && run.largestFileAlone ? ', in the city\'s ingest, where it shares the two cores with the other loads.' : '.')
        : '') +
      (run.largestFileAlone ? ` ${aloneSentence(run.largestFileAlone)}` : ''),
  ];
}

/** The target of a refresh that re-reads an unchanged file whole: a quarter of the raw COPY of that file. */
export const REINGEST_TARGET_RATIO = 0.25;

function reingestParts(r: Reingest): string[] {
  const c = r.ceiling;
  return [
    `### Re-ingest of an unchanged file, against its raw COPY`,
    `The city's ${r.file} loaded again, unchanged, after the city load, through the ingest worker (\`${r.command}\`): ` +
      `**${num(r.rows)} rows in ${num(r.seconds)} s = ${num(r.rowsPerSecond)} rows/s** from the start of its run to the commit of its merge ` +
      `(${r.unchangedLines !== undefined ? `${num(r.unchangedLines)} lines skipped unparsed as unchanged, their hash stored already; ` : ''}` +
      `${num(r.unchanged)} records compared unchanged, ${num(r.updated)} updated, ${num(r.inserted)} inserted, ${num(r.vanished)} vanished). ` +
      `Its ceiling, measured right after: \`COPY ... FROM STDIN (FORMAT csv, HEADER true)\` of the same file's well-formed rows into an UNLOGGED table of text columns, ` +
      `${num(c.rows)} rows in ${num(c.seconds)} s = ${num(c.rowsPerSecond)} rows/s. ` +
      `The re-ingest runs at **${(r.ratio * 100).toFixed(1)}%** of its ceiling (target: at least ${REINGEST_TARGET_RATIO * 100}%: ${r.ratio >= REINGEST_TARGET_RATIO ? 'met' : '**not met**'}).`,
  ];
}

function aloneSentence(a: LargestFileAlone): string {
  return (
    `Loaded alone, as the raw COPY is, into a fresh database holding only the building files (\`${a.command}\`, through the ingest worker): ` +
    `${num(a.rows)} rows in ${num(a.seconds)} s from its start to the commit of its merge = ${num(a.rowsPerSecond)} rows/s` +
    (a.csvCopyRatio != null ? `: **${(a.csvCopyRatio * 100).toFixed(1)}%** of the ceiling.` : '.')
  );
}

function storageParts(st: EventStorage): string[] {
  return [
    `Storage: **${num(st.eventBytesPerRow)} bytes per event** all-in (events heap + TOAST + every index, ${mb(st.eventBytes)} MB for ${num(st.eventRows)} events); ` +
      `the whole database is **${num(st.databaseBytesPerEvent)} bytes per event** (${mb(st.databaseBytes)} MB).`,
  ];
}

function copyCeilingParts(run: BenchmarkRun, c: CopyCeiling): string[] {
  return [
    '### Ceiling: raw COPY of the normalized rows',
    `\`COPY (SELECT * FROM events) TO STDOUT\` into a file (${mb(c.bytes)} MB, ${num(c.rows)} rows, ${c.copyOutSeconds} s), then \`COPY ... FROM STDIN\` into an empty table ` +
      `identical to \`events\` (same keys, indexes and 16 hash partitions): **${num(c.rowsPerSecond)} rows/s, ${c.megabytesPerSecond} MB/s** (${c.copyInSeconds} s). ` +
      (run.ingestToCopyRatio !== null ? `End-to-end ingest runs at **${(run.ingestToCopyRatio * 100).toFixed(1)}%** of this ceiling.` : ''),
  ];
}

function scoringParts({ full, incremental }: NonNullable<BenchmarkRun['scoring']>): string[] {
  return [
    `### Scoring (the real scoring worker, ${full.processes ?? 1} process${(full.processes ?? 1) > 1 ? 'es' : ''})`,
    table(
      ['run', 'command', 'buildings', 'seconds', 'buildings/s', 'worker peak RSS MB (the largest process)'],
      [
        ['full', `\`${full.command}\``, num(full.buildings), full.seconds, num(full.buildingsPerSecond), mb(full.workerPeakRssBytes)],
        [`incremental (${incremental.dirtyShare * 100}% of buildings marked changed)`, `\`${incremental.command}\``, num(incremental.buildings), incremental.seconds, num(incremental.buildingsPerSecond), mb(incremental.workerPeakRssBytes)],
      ],
    ),
    full.toSwitchCommit ? '' : SWITCH_NOT_COUNTED,
  ].filter(Boolean);
}

/** Under the scoring figures of a run of before the correction of the run times. */
const SWITCH_NOT_COUNTED =
  'These seconds end where the switch of the scores began: the writes of the scores, the history and the grade crossings are not counted (a run recorded before runs ended at the commit of their last transaction, libs/runs/src/run-duration.ts).';

function refreshParts(r: RefreshResult): string[] {
  return [
    '### Refresh (a day of changes, ingested and rescored)',
    `Written by \`${r.generationCommand}\`: ${num(r.rows)} rows in ${r.files} files, **${Math.round(r.shareOfCity * 10000) / 100}% of the city's rows** ` +
      `(the synthetic city's changes from ${r.since} to ${r.asOf}: new records and records whose status changed). ` +
      `Ingested by \`${r.ingestCommand}\` in ${num(r.ingestSeconds)} s (${num(r.inserted)} records inserted, ${num(r.updated)} updated, ${num(r.statusChanges)} status-change events), ` +
      `then \`${r.scoring.command}\` rescored the ${num(r.scoring.buildings)} buildings it changed in ${r.scoring.seconds} s (${r.scoring.processes ?? 1} scoring process${(r.scoring.processes ?? 1) > 1 ? 'es' : ''}; peak RSS ${mb(r.scoring.workerPeakRssBytes)} MB). ` +
      `**Refresh, ingest plus rescoring: ${num(r.totalSeconds)} s.**` +
      (r.scoring.toSwitchCommit ? '' : ` ${SWITCH_NOT_COUNTED}`),
  ];
}

function sodaRefreshParts(r: SodaRefreshResult): string[] {
  const incrementalRows = r.rows - r.wholeSetRows;
  return [
    '### Refresh through SODA (the next 28 days, downloaded from a local Socrata stand-in and rescored)',
    `Written by ${r.generationCommands.map((c) => `\`${c}\``).join(' and ')}: the synthetic city's changes from ${r.since} to ${r.asOf}, put on a local Socrata stand-in ` +
      `(\`libs/synth/src/socrata-mirror/\`: each data set's real view metadata, the rows as SODA JSON under its real field names; a set the city republishes whole as its whole CSV export) in ${r.publishSeconds} s, not counted. ` +
      `The ingest worker (\`SOCRATA_BASE_URL\` on the stand-in) downloaded the ${r.sources} sources with changed rows, one after the other as the daily refresh does: \`${r.ingestCommand}\`. ` +
      `${num(r.rows)} rows read (**${Math.round(r.shareOfCity * 10000) / 100}% of the city's rows**: ${num(incrementalRows)} SODA JSON rows of the sources refreshed incrementally, ${num(r.wholeSetRows)} of the sets read whole) ` +
      `in ${num(r.ingestSeconds)} s, **${num(r.rowsPerSecond)} rows/s** (the runs themselves: ${num(r.runSeconds)} s; the rest is each CLI's start and its wait for its run) (${num(r.inserted)} records inserted, ${num(r.updated)} updated, ${num(r.statusChanges)} status-change events), ` +
      `then \`${r.scoring.command}\` rescored the ${num(r.scoring.buildings)} buildings they changed in ${r.scoring.seconds} s (peak RSS ${mb(r.scoring.workerPeakRssBytes)} MB). ` +
      `**Refresh through SODA, downloads plus rescoring: ${num(r.totalSeconds)} s.**`,
  ];
}

function diskParts(tables: TableSize[]): string[] {
  const total = tables.reduce((s, t) => s + t.totalBytes, 0);
  return [
    '### Disk (after `VACUUM (ANALYZE)`)',
    `Database total: ${mb(total)} MB.`,
    table(
      ['table', 'rows', 'table MB', 'indexes MB', 'total MB', 'indexes (MB)'],
      tables
        .filter((t) => t.totalBytes > 64 * 1024)
        .map((t) => [t.table, num(t.rows), mb(t.tableBytes), mb(t.indexBytes), mb(t.totalBytes), t.indexes.map((i) => `${i.index} ${mb(i.bytes)}`).join('; ')]),
    ),
  ];
}

function httpParts(run: BenchmarkRun, h: HttpBenchmark): string[] {
  return [
    `### HTTP (the built API as a process; autocannon, ${h.connections} connections unless the table says otherwise, ${h.secondsPerScenario} s per scenario after a warm-up of 3 requests per connection; the lookup warm-up requests each building of its working set once)`,
    ...(run.httpCommand ? [`HTTP measured again at ${run.httpAt ?? '?'} with \`${run.httpCommand}\` on the same database.`] : []),
    ...(run.httpKeptFrom ? [`**Not measured in this run** (it skipped the HTTP benchmarks): these are the figures of an earlier run at this scale, measured ${run.httpKeptFrom}, on an earlier build and perhaps another machine.`] : []),
    `API settings: ${Object.entries(h.apiEnv).map(([k, v]) => `${k}=${v}`).join(', ')}; one key with a raised rate limit. The load generator runs on the same 2 CPUs as the API and Postgres. ` +
      `Lookup body: ${h.lookupBodyBytes} bytes.`,
    httpScenarioTable(h),
    ...(h.toExpress
      ? [
          `Against bare Express 5 (one route, no middleware, the same body bytes), in the same run: lookup (valid key, rate limit counted, access log written, metrics counted) **${h.toExpress.lookup}**; ` +
            `401 without a key **${h.toExpress.unauthorized}**; 429 for a key over its limit **${h.toExpress.rateLimited}**.` +
            (h.toExpressRounds
              ? ` Each is the median of ${h.toExpressRounds.lookup.rounds} paired rounds (the API and bare Express loaded ${h.toExpressRounds.lookup.secondsPerLoad} s each, back to back, ` +
                `the order alternating; tools/bench/src/http/paired-rounds.ts): lookup ${h.toExpressRounds.lookup.ratios.join(', ')}; 401 ${h.toExpressRounds.unauthorized.ratios.join(', ')}; ` +
                `429 ${h.toExpressRounds.rateLimited.ratios.join(', ')}. The req/s in the table are single 12 s runs.`
              : ''),
        ]
      : []),
    `Lookup / bare node:http ratio: **${h.lookupToCeilingRatio}**. API peak RSS over the whole HTTP run (VmHWM): ${mb(h.apiPeakRssBytes)} MB; RSS after: ${mb(h.apiRssAfterBytes)} MB.`,
    ...(h.unitCosts ? unitCostParts(h.unitCosts) : []),
  ];
}

function unitCostParts(u: UnitCosts): string[] {
  const over = u.rows.filter((r) => r.toCachedLookup > u.target);
  return [
    `#### What one unit buys`,
    `Each route's requests sent one at a time for ${u.secondsPerRoute} s ${u.measured ? `on the API of \`${u.measured.command}\` (${u.measured.at}; its cached lookup is the unit's yardstick, so the ratios are of one run)` : 'on the API above'} (tools/bench/src/http/unit-costs.ts); CPU of the API process and of the database's Postgres backends (/proc), ` +
      `divided by the units charged (\`X-RateLimit-Cost\`; a 429 names the units it would have cost and charges none). Target: no route above **${u.target}x** a cached lookup per unit` +
      (over.length === 0 ? ': met.' : `: **not met** by ${over.map((r) => r.route).join('; ')}.`),
    table(
      ['route', 'requests', 'units', 'API CPU ms', 'Postgres CPU ms', 'CPU ms per unit', 'x cached lookup', 'statuses'],
      u.rows.map((r) => [
        r.route,
        num(r.requests),
        num(r.units),
        Math.round(r.apiCpuMs),
        Math.round(r.postgresCpuMs),
        r.cpuMsPerUnit.toFixed(3),
        r.toCachedLookup,
        Object.entries(r.statuses).map(([code, n]) => `${code}: ${num(n)}`).join(', '),
      ]),
    ),
  ];
}

function httpScenarioTable(h: HttpBenchmark): string {
  return table(
    ['scenario', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'MB/s', 'statuses', 'server peak RSS MB'],
    [...h.scenarios, ...(h.express ? [h.express] : []), h.ceiling].map((r) => [
      r.name,
      r.connections,
      num(r.requestsPerSecond),
      r.latencyP50Ms,
      r.latencyP99Ms,
      r.latencyMaxMs,
      r.megabytesPerSecond,
      Object.entries(r.statusCounts).map(([code, n]) => `${code}: ${num(n)}`).join(', ') + (r.errors ? `, errors: ${r.errors}` : ''),
      r.serverPeakRssBytes !== null ? mb(r.serverPeakRssBytes) : '-',
    ]),
  );
}

/** One run's section: what ran where, then each measurement the run has. */
function runSection(run: BenchmarkRun): string {
  return [
    `## ${run.scalePercent}% of the city (${num(run.city.buildings)} buildings)`,
    ...(run.incomplete ? ['**Incomplete:** written while the run was still going; the steps that follow the last one shown were not measured.'] : []),
    runFacts(run),
    ...(run.ingest ? ingestParts(run.ingest) : []),
    ...(run.csvCeiling ? csvCeilingParts(run, run.csvCeiling) : []),
    ...(run.reingest ? reingestParts(run.reingest) : []),
    ...(run.storage ? storageParts(run.storage) : []),
    ...(run.copyCeiling ? copyCeilingParts(run, run.copyCeiling) : []),
    ...(run.scoring ? scoringParts(run.scoring) : []),
    ...(run.refresh ? refreshParts(run.refresh) : []),
    ...(run.sodaRefresh ? sodaRefreshParts(run.sodaRefresh) : []),
    ...(run.tables.length > 0 ? diskParts(run.tables) : []),
    ...(run.http ? httpParts(run, run.http) : []),
  ].join('\n\n');
}

function scaleCurve(runs: BenchmarkRun[]): string {
  const rows = runs
    .filter((r) => r.http)
    .map((r) => {
      const lookup = r.http?.scenarios.find((s) => s.name === 'lookup');
      const heavy = r.http?.scenarios.find((s) => s.name.startsWith('events page, heaviest'));
      const total = r.tables.reduce((s, t) => s + t.totalBytes, 0);
      const scale = r.httpKeptFrom ? `${r.scalePercent}% (HTTP of ${r.httpKeptFrom.slice(0, 10)})` : `${r.scalePercent}%`;
      return [scale, num(r.city.buildings), num(r.city.eventRows), mb(total), lookup ? num(lookup.requestsPerSecond) : '-', lookup?.latencyP50Ms ?? '-', lookup?.latencyP99Ms ?? '-', heavy?.latencyP99Ms ?? '-'];
    });
  return table(['scale', 'buildings', 'event rows (CSV)', 'database MB', 'lookup req/s', 'lookup p50 ms', 'lookup p99 ms', 'heaviest events page p99 ms'], rows);
}

function fullCityEstimate(runs: BenchmarkRun[]): string {
  const whole = runs.find((r) => r.scalePercent >= 100 && r.ingest);
  if (whole) return `The whole city (100% = 445,000 buildings) is measured, not extrapolated: "100% of the city" below${whole.incomplete ? ' (a run still going when it was written)' : ''}.`;
  const basis = [...runs].filter((r) => r.ingest).sort((a, b) => b.scalePercent - a.scalePercent)[0];
  if (!basis?.ingest) return 'No ingest measurement yet.';
  const factor = FULL_CITY_BUILDINGS / basis.city.buildings;
  const rows = basis.ingest.rows * factor;
  const bytes = basis.ingest.bytes * factor;
  const dbBytes = basis.tables.reduce((s, t) => s + t.totalBytes, 0) * factor;
  const hours = rows / basis.ingest.rowsPerSecond / 3600;
  const copyHours = basis.copyCeiling ? rows / basis.copyCeiling.rowsPerSecond / 3600 : null;
  const scoringMinutes = basis.scoring ? (basis.scoring.full.seconds * factor) / 60 : null;
  return [
    `Linear extrapolation from the ${basis.scalePercent}% run (x${num(factor)}); **not run**: it needs about ${num(bytes / 1e9)} GB of CSV and, at the measured ` +
      `${num(basis.ingest.rowsPerSecond)} rows/s, about **${num(hours)} hours** of ingest.`,
    '',
    table(
      ['', 'estimate'],
      [
        ['rows to ingest', num(rows)],
        ['CSV', `${num(bytes / 1e9)} GB`],
        ['database on disk', `${num(dbBytes / 1e9)} GB`],
        ['ingest at the measured rate', `${num(hours)} h`],
        ['ingest at the COPY ceiling', copyHours !== null ? `${num(copyHours)} h` : '-'],
        ['full scoring', scoringMinutes !== null ? `${num(scoringMinutes)} min` : '-'],
      ],
    ),
  ].join('\n');
}

function scaleOutSection(result: ScaleOutResult): string {
  const most = result.runs[result.runs.length - 1];
  return [
    `### ${result.scalePercent}% of the city: one worker of each kind against ${most.workers}`,
    '',
    `- Date: ${result.startedAt} to ${result.finishedAt}; ${result.cpus} CPUs shared by the workers, Postgres, Redis and other work`,
    `- Command: \`${result.command}\` (each configuration on a fresh database: \`bhis ingest --dir\`, then \`bhis score --full --wait\`; wall times as the CLI sees them)`,
    '',
    table(
      ['workers of each kind', 'ingest s', 'rows/s', 'ingest runs per worker', 'full scoring s', 'buildings/s', 'parts per worker', 'load average before', 'after'],
      result.runs.map((r) => [
        r.workers, num(r.ingestSeconds), num(r.ingestRowsPerSecond), r.ingestRunsPerWorker.join(' + '), num(r.scoringSeconds), num(r.buildingsPerSecond),
        `${r.partsPerWorker.join(' + ')} of ${r.scoringParts}`, r.loadAverageBefore.join(' / '), r.loadAverageAfter.join(' / '),
      ]),
    ),
    '',
    `Speed-up with ${most.workers} workers of each kind: **ingest x${result.ingestSpeedUp}, full scoring x${result.scoringSpeedUp}**.`,
  ].join('\n');
}

function searchScalingSection(r: SearchScalingResult): string {
  const sizes = r.scenarios[0]?.sizes.map((s) => s.buildings) ?? [];
  return [
    '## Search at 1%, 10% and the whole city',
    '',
    `- Date: ${r.startedAt} to ${r.finishedAt}; commit ${r.commit ?? 'not recorded'}; ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB, Postgres ${r.machine.postgres}; load average ${r.loadAverageAtStart.join(' / ')} before, ${r.loadAverageAtEnd.join(' / ')} after`,
    `- Command: \`${r.command}\``,
    `- A scratch database per size holding what search reads (the buildings of the synthetic city, seed 1, with their addresses, ZIP Codes and owners, and a current score each; ` +
      `seeded and analyzed in ${sizes.map((n) => `${r.seedSeconds[String(n)] ?? '?'} s`).join(', ')}), dropped after the run; the built API on each; the same queries sent to every size. ` +
      `${r.rounds} rounds, each loading every scenario on every size for ${r.secondsPerLoad} s in turn (the order of the sizes rotating), ${r.connections} connections; ` +
      'req/s over all rounds, p50 and p99 the median of the rounds\'; the p99 ratio is the median of the rounds\' p99 at the whole city over p99 at 1% of the same round.',
    '',
    table(
      ['scenario', 'e.g.', ...sizes.flatMap((n) => [`${num(n)}: req/s`, 'p50 ms', 'p99 ms', 'found']), `p99 ${num(sizes[sizes.length - 1] ?? 0)} / ${num(sizes[0] ?? 0)}`, 'target'],
      r.scenarios.map((s) => [
        s.name,
        `\`${s.example}\``,
        ...s.sizes.flatMap((z) => [num(z.requestsPerSecond), z.latencyP50Ms, z.latencyP99Ms, `${Math.round(z.matchedShare * 100)}%`]),
        `**${s.p99Ratio}**`,
        `<= ${r.target}${s.withinTarget ? '' : ' (missed)'}`,
      ]),
    ),
    '',
    '"found": the share of the first 50 queries answered with at least one building.',
  ].join('\n');
}

function machineText(run: BenchmarkRun): string {
  return `${run.machine.cpus} CPUs (${run.machine.cpuModel}), ${run.machine.memoryGiB} GiB`;
}

/** The table that opens the file: each of `CURRENT_FIGURES` read from the latest run of its scale. */
export function currentTable(file: BenchmarkFile): string {
  const rows = CURRENT_FIGURES.flatMap((f) => {
    const run = file.runs[String(f.scale)];
    const value = run ? f.value(run, file) : null;
    if (!run || value === null) return [];
    const { command, date } = provenance(run, f.http ?? false);
    return [[f.figure, value, f.target, command, machineText(run), date, run.commit ?? 'not recorded']];
  });
  return table(['figure', 'value', 'target', 'command', 'machine', 'date', 'commit'], rows);
}

/** The latest run of each scale, one line each; earlier runs are in the history of docs/benchmarks.json. */
export function runsTable(runs: BenchmarkRun[]): string {
  return table(
    ['scale', 'buildings', 'started', 'finished', 'commit', 'command'],
    runs.map((r) => [`${r.scalePercent}%${r.incomplete ? ' (incomplete)' : ''}`, num(r.city.buildings), r.startedAt, r.finishedAt, r.commit ?? 'not recorded', `\`${r.command}\``]),
  );
}

export function renderMarkdown(file: BenchmarkFile): string {
  const scaleOut = Object.values(file.scaleOut ?? {}).sort((a, b) => a.scalePercent - b.scalePercent);
  const runs = Object.values(file.runs).sort((a, b) => a.scalePercent - b.scalePercent);
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench -- --scale <percent>` (the harness in `tools/bench`) from `docs/benchmarks.json`, which holds the latest run of each scale; ' +
      '`npm run bench -- --render-only` writes this file again from it. docs/scaling.md reads these figures: how the service scales, what each piece does, its settings and limits.',
    '',
    '## Current figures',
    '',
    currentTable(file),
    '',
    'This machine\'s speed varies from day to day (the same code has needed twice the CPU per row on a slow day): compare figures of one run, and ratios to the ceilings measured in the same run.',
    '',
    '## Runs',
    '',
    runsTable(runs),
    '',
    'Earlier runs and experiments: the history of `docs/benchmarks.json` (`git log -p docs/benchmarks.json`; its `notes` keep the dated record).',
    '',
    '## What a run does',
    '',
    'Each run creates a fresh database `bhis_bench_<scale>`, generates the synthetic city (seed 1, as of 2026-11-01) and beside it its refresh (both reused when already generated), ingests the city through the ' +
      'real ingest worker with the operator CLI, scores it with the real scoring worker (full, then incremental), ingests and rescores the refresh (about 1% of the rows new or changed: ' +
      '`bhis synth --changes-since`, loaded as files), then the next 28 days of changes served as SODA JSON by a local Socrata stand-in and downloaded by the ingest worker ' +
      '(the path of the daily refresh), measures the raw COPY ceiling and the disk size of every table ' +
      'and index, then loads the built API (a separate process, real keys and rate limiting, Redis and Postgres on loopback) with autocannon and compares it with a bare ' +
      'Express 5 app and a bare `node:http` server answering a JSON body of the same size. Benchmarks are separate from the tests (`npm test` never runs them).',
    '',
    '## Scale curve',
    '',
    scaleCurve(runs),
    '',
    fullCityEstimate(runs),
    '',
    ...(scaleOut.length > 0
      ? ['## More workers on one database', '', 'Ingest splits a city load by file (one job per file; the files of one source staged at once, the merges in turn); a full scoring run splits by BBL range (docs/scaling.md).', '', ...scaleOut.flatMap((r) => [scaleOutSection(r), ''])]
      : []),
    ...(file.searchScaling ? [searchScalingSection(file.searchScaling), ''] : []),
    ...runs.map(runSection).flatMap((s) => [s, '']),
    ...(file.sections ?? []).flatMap((s) => [`## ${s.title}`, '', s.markdown, '']),
  ].join('\n');
}
