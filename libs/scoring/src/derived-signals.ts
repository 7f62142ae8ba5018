import {
  EXPIRED_REGISTRATION_POINTS,
  NO_REGISTRATION_POINTS,
  REINVESTMENT_CREDIT,
  UNCORRECTED_SHARE_FULL_EVIDENCE_PER_UNIT,
  UNCORRECTED_SHARE_POINTS,
} from './components';
import { AGE_BUCKETS, ageBucketIndex, bucketsWithin } from './age-buckets';
import { BuildingFeatures } from './features';
import { HistogramRow } from './input';

export interface DerivedValue {
  points: number;
  count: number;
  rows: HistogramRow[];
}

export function registrationPoints(features: BuildingFeatures): DerivedValue | null {
  if (features.registration_status === 'missing') return { points: NO_REGISTRATION_POINTS, count: 1, rows: [] };
  if (features.registration_status === 'expired') return { points: EXPIRED_REGISTRATION_POINTS, count: 1, rows: [] };
  return null;
}

export function uncorrectedSharePoints(features: BuildingFeatures): DerivedValue | null {
  const n = features.bc_violations_3m_5y;
  if (n === 0 || features.open_bc_violations_3m_5y === 0) return null;
  const share = features.open_bc_violations_3m_5y / n;
  const evidence = Math.min(1, n / (UNCORRECTED_SHARE_FULL_EVIDENCE_PER_UNIT * features.rate_units));
  return { points: UNCORRECTED_SHARE_POINTS * share * evidence, count: features.open_bc_violations_3m_5y, rows: [] };
}

const PERMIT_WINDOW = bucketsWithin(REINVESTMENT_CREDIT.window_months);

/** The reinvestment credit (0 to REINVESTMENT_CREDIT.max) and the filings behind it. */
export function reinvestmentCredit(
  histogram: readonly HistogramRow[],
  rateUnits: number,
): { credit: number; count: number; rows: HistogramRow[] } {
  let decayed = 0;
  let count = 0;
  const rows: HistogramRow[] = [];
  for (const row of histogram) {
    if (row.event_type !== 'dob_job_filing' && row.event_type !== 'dob_now_job_filing') continue;
    if (row.scoring_excluded || row.category === 'fire') continue;
    const bucket = ageBucketIndex(row.age_bucket);
    if (bucket >= PERMIT_WINDOW) continue;
    decayed += row.count * Math.pow(0.5, AGE_BUCKETS[bucket].representative_years / REINVESTMENT_CREDIT.half_life_years);
    count += row.count;
    rows.push(row);
  }
  if (count === 0) return { credit: 0, count: 0, rows };
  const perUnits = (decayed * REINVESTMENT_CREDIT.per_units) / rateUnits;
  return { credit: Math.min(REINVESTMENT_CREDIT.max, REINVESTMENT_CREDIT.per_log_filing * Math.log1p(perUnits)), count, rows };
}
