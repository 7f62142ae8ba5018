/** The NYC Open Data (Socrata) host: the one place it is written. */
export const SOCRATA_HOST = 'https://data.cityofnewyork.us';

export interface DatasetUrls {
  /** Whole data set as CSV with display column names. */
  csv: string;
  /** SODA JSON endpoint (field names; `$where`, `$limit`, `$offset`, `$order`). */
  json: string;
  /** Metadata, with `rowsUpdatedAt` to tell whether a download is needed. */
  metadata: string;
  /** The public page of the data set. */
  page: string;
}

export function socrataUrls(datasetId: string, host: string = SOCRATA_HOST): DatasetUrls {
  return {
    csv: `${host}/api/views/${datasetId}/rows.csv?accessType=DOWNLOAD`,
    json: `${host}/resource/${datasetId}.json`,
    metadata: `${host}/api/views/${datasetId}.json`,
    page: `${host}/d/${datasetId}`,
  };
}
