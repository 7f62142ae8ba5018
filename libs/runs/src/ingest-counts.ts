/** What one ingest run did; stored in ingest_runs.counts and shown by the CLI and the admin API. */
export interface IngestCounts {
  /** read = loaded + quarantined + out_of_scope */
  read: number;
  loaded: number;
  /** Of `loaded`: lines whose hash was stored already, skipped unparsed (the records they stand for are unchanged). */
  unchanged_lines: number;
  quarantined: number;
  out_of_scope: number;
  out_of_scope_reasons: Record<string, number>;
  quarantine_reasons: Record<string, number>;
  cast_failures: Record<string, number>;
  /** Status words and the like that map to nothing yet (`Violation Status: CURED`): add them to the source's vocabulary. */
  unmapped_values: Record<string, number>;
  /** SODA pulls: fields the rows carry that the data set's metadata does not publish -> rows (their values are not read). */
  unknown_fields: Record<string, number>;
  /** SODA pulls: columns found through the metadata although their display name changed (`Postcode -> field zip ("Zip Code")`). */
  followed_columns: string[];
  events: {
    staged: number;
    inserted: number;
    updated: number;
    unchanged: number;
    status_changes: number;
    collapsed_duplicates: number;
    duplicates_311: number;
  };
  facts: { inserted: number; updated: number };
  /** Records of a whole-replace source that the export no longer carries, closed by this run. */
  vanished: number;
  bytes: number;
  part: string | null;
  /** The layout the file carried (`current`, `variant N`, `metadata`, `soda`), per part. */
  layout: string | null;
  latest_record_date: string | null;
}

export function emptyCounts(): IngestCounts {
  return {
    read: 0,
    loaded: 0,
    unchanged_lines: 0,
    quarantined: 0,
    out_of_scope: 0,
    out_of_scope_reasons: {},
    quarantine_reasons: {},
    cast_failures: {},
    unmapped_values: {},
    unknown_fields: {},
    followed_columns: [],
    events: { staged: 0, inserted: 0, updated: 0, unchanged: 0, status_changes: 0, collapsed_duplicates: 0, duplicates_311: 0 },
    facts: { inserted: 0, updated: 0 },
    vanished: 0,
    bytes: 0,
    part: null,
    layout: null,
    latest_record_date: null,
  };
}
