import { HeaderMismatchError, SodaFieldMismatchError } from '@bhis/sources';
import { PermanentDownloadError } from './checked-fetch';
import { DatasetMetadataError } from './dataset-metadata';
import { SuspiciousDownloadError } from './load-source';

/**
 * The code a failed run leaves on its source (`sources.last_error_code`, shown by `GET /api/v1/sources`,
 * `bhis ingest --status` and `/metrics`): what kind of failure it is, in a word an operator can alert on.
 */
export function failureCode(error: unknown): string {
  if (error instanceof HeaderMismatchError) return 'header_mismatch';
  if (error instanceof SodaFieldMismatchError) return 'soda_field_mismatch';
  if (error instanceof DatasetMetadataError) return 'metadata_invalid';
  if (error instanceof PermanentDownloadError) return 'download_refused';
  if (error instanceof SuspiciousDownloadError) return 'too_few_records';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'file_missing';
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return 'out_of_memory';
  if (typeof code === 'string' && code.startsWith('53')) return 'out_of_resources';
  return 'load_failed';
}
