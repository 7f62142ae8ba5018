import type { SearchScalingResult } from './search-scaling/search-scaling';
import type { CopyCeiling, CsvCopyCeiling, EventStorage, TableSize } from './database';
import type { IngestResult, ScoringResult } from './data-setup';
import type { HttpBenchmark } from './http/run-http';
import type { MachineInfo } from './machine';
import type { RefreshResult } from './refresh';
import type { SodaRefreshResult } from './soda-refresh';
import type { Reingest } from './reingest';
import type { ScaleOutResult } from './scale-out';

export interface CitySummary {
  buildings: number;
  seed: string;
  asOf: string;
  files: number;
  rows: number;
  eventRows: number;
  bytes: number;
  eventsPerBuilding: { mean: number; median: number; p99: number; max: number; atLeast10000: number };
  generationSeconds: number;
  generationCommand: string;
  reused: boolean;
}

/** Everything one `npm run bench -- --scale N` measured. */
export interface BenchmarkRun {
  scalePercent: number;
  startedAt: string;
  finishedAt: string;
  command: string;
  /** the commit the run's code was built from (`git rev-parse --short HEAD`; absent in runs recorded before it was kept) */
  commit?: string;
  machine: MachineInfo;
  /** 1/5/15-minute load averages when the run started: other work on the machine */
  loadAverageAtStart: number[];
  database: string;
  city: CitySummary;
  ingest: IngestResult | null;
  /** the city's unchanged file of one source loaded again whole, with the raw COPY of it in the same run (absent in older results) */
  reingest?: Reingest | null;
  copyCeiling: CopyCeiling | null;
  /** ingest rows/s divided by the raw COPY rows/s */
  ingestToCopyRatio: number | null;
  /** the largest source file COPY'd as it is into an unlogged all-text table, in the same run */
  csvCeiling?: CsvCopyCeiling | null;
  /** ingest rows/s of the largest file divided by its raw CSV COPY rows/s */
  largestFileToCsvCopyRatio?: number | null;
  /** the largest file loaded alone (after the building files) into a fresh database (absent in older results and above 10%) */
  largestFileAlone?: LargestFileAlone | null;
  /** load averages when the run ended */
  loadAverageAtEnd?: number[];
  storage?: EventStorage | null;
  scoring: { full: ScoringResult; incremental: ScoringResult & { dirtyShare: number } } | null;
  /** a refresh (about 1% of the rows new or changed) ingested and rescored after the city load (absent in older results) */
  refresh?: RefreshResult | null;
  /** the next 28 days of changes downloaded through SODA from a local Socrata stand-in, then rescored (absent in older results) */
  sodaRefresh?: SodaRefreshResult | null;
  tables: TableSize[];
  http: HttpBenchmark | null;
  /** written while the run was still going: the steps after the last one recorded are missing */
  incomplete?: boolean;
  /** the run skipped the HTTP benchmarks: when the earlier run whose HTTP figures it keeps measured them */
  httpKeptFrom?: string;
  /** set when the HTTP benchmarks were run again later with --http-only */
  httpCommand?: string;
  httpAt?: string;
}

/** The largest file of the city loaded alone, as its raw COPY is measured (largest-file-alone.ts). */
export interface LargestFileAlone {
  command: string;
  file: string;
  rows: number;
  /** from the start of its run to the commit of its merge */
  seconds: number;
  rowsPerSecond: number;
  /** rowsPerSecond divided by the raw CSV COPY rows/s of the same run */
  csvCopyRatio: number | null;
}

export interface BenchmarkFile {
  runs: Record<string, BenchmarkRun>;
  /** one worker of each kind against several, by scale (`--workers N`) */
  scaleOut?: Record<string, ScaleOutResult>;
  /** search at 1%, 10% and the whole city in one run (`--search-scaling`) */
  searchScaling?: SearchScalingResult;
  /**
   * The dated record of earlier runs and experiments, kept across runs and never rendered: docs/benchmarks.md
   * and docs/scaling.md describe the present, and what a note measured that still holds is written there.
   */
  notes?: string[];
  /** sections written by hand in the present tense (e.g. a profile), rendered after the runs and kept across runs */
  sections?: { title: string; markdown: string }[];
}
