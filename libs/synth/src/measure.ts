import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCity, type CityReport } from './generate-city';

export interface GenerationMeasurement {
  readonly report: CityReport;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly megabytesPerSecond: number;
  readonly eventsPerBuilding: number;
  /** linear extrapolation to the full city of 445,000 buildings */
  readonly fullCity: { readonly seconds: number; readonly rows: number; readonly gigabytes: number };
}

export const FULL_CITY_BUILDINGS = 445_000;

/** Generates a city (into `outDir`, or a temporary directory removed afterwards) and reports the speed. */
export async function measureGeneration(buildings: number, seed: number | string = 1, outDir?: string): Promise<GenerationMeasurement> {
  const dir = outDir ?? (await mkdtemp(join(tmpdir(), 'bhis-synth-')));
  try {
    const report = await generateCity({ buildings, seed, outDir: dir });
    const seconds = report.elapsedMs / 1000;
    const scale = FULL_CITY_BUILDINGS / buildings;
    return {
      report,
      seconds,
      rowsPerSecond: report.totalRows / seconds,
      megabytesPerSecond: report.totalBytes / 1e6 / seconds,
      eventsPerBuilding: report.eventRows / buildings,
      fullCity: { seconds: seconds * scale, rows: Math.round(report.totalRows * scale), gigabytes: (report.totalBytes * scale) / 1e9 },
    };
  } finally {
    if (!outDir) await rm(dir, { recursive: true, force: true });
  }
}
