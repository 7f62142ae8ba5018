import type { Pool } from 'pg';
import type { BblResolver, SourceDefinition } from '@bhis/sources';

function needs(source: SourceDefinition, kind: 'bin' | 'registration'): boolean {
  return source.parts.some((part) => part.bbl.some((locator) => locator.kind === kind));
}

/** Loads the BIN -> BBL and registration -> BBL maps a source needs into memory for its parser. */
export async function loadResolver(pool: Pool, source: SourceDefinition): Promise<BblResolver> {
  const bins = new Map<number, string>();
  const registrations = new Map<number, string>();
  if (needs(source, 'bin')) {
    const { rows } = await pool.query<{ bin: number; bbl: string }>('SELECT bin, bbl FROM bin_bbl');
    for (const row of rows) bins.set(row.bin, row.bbl);
  }
  if (needs(source, 'registration')) {
    const { rows } = await pool.query<{ registration_id: number; bbl: string }>('SELECT registration_id, bbl FROM hpd_registrations');
    for (const row of rows) registrations.set(row.registration_id, row.bbl);
  }
  return {
    resolveBin: (bin) => bins.get(bin) ?? null,
    resolveRegistration: (id) => registrations.get(id) ?? null,
  };
}
