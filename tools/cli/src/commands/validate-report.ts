import os from 'node:os';
import { COMPONENT_KEYS, SCORER_ID } from '@bhis/domain';
import {
  ACTIONABLE_PER_100K_UNITS,
  BASELINE_DESCRIPTIONS,
  BASELINES,
  BaselineBacktest,
  BandResult,
  MIN_K,
  Ranking,
  RANKINGS,
  TARGET_COVERAGE,
  ValidationReport,
} from '@bhis/score-runner';
import { CALIBRATION_GRID, FITTED_MODEL } from '@bhis/scoring';

/** One city's measures: a synthetic seed (with its truth file) or the loaded city. */
export interface SeedMeasure {
  seed: string;
  buildings: number;
  synthetic: boolean;
  report: ValidationReport;
  backtest: BaselineBacktest;
}

/** The headroom the goal asks the score to close, in every band and cut and in the pooled precision at k. */
export const HEADROOM_GOAL = 0.5;

const fmt = (x: number | null | undefined, digits = 3) => (x !== null && x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const NAMES: Record<Ranking, string> = { score: 'score', ...(Object.fromEntries(BASELINES.map((b) => [b, b])) as Record<string, string>), reference: 'reference', bayes: 'Bayes' } as Record<Ranking, string>;

function cells(backtest: BaselineBacktest): { cut: string; band: BandResult }[] {
  return backtest.cuts.flatMap((c) => c.bands.map((band) => ({ cut: c.cut, band })));
}

/** The goal's measures of one city: the headroom the score closes per cell and in the pooled precision. */
export function goalOf(backtest: BaselineBacktest): { cells: number; met: number; min: number; median: number; reference_min: number; precision: number[]; precision_met: number } {
  const headroom = cells(backtest).map((c) => c.band.headroom_closed?.score ?? Number.NaN);
  const reference = cells(backtest).map((c) => c.band.headroom_closed?.reference ?? Number.NaN);
  const precision = backtest.cuts.map((c) => c.pooled_precision.headroom_closed?.score ?? Number.NaN);
  return {
    cells: headroom.length,
    met: headroom.filter((h) => h >= HEADROOM_GOAL).length,
    min: Math.min(...headroom),
    median: median(headroom),
    reference_min: Math.min(...reference),
    precision,
    precision_met: precision.filter((h) => h >= HEADROOM_GOAL).length,
  };
}

function summary(measures: readonly SeedMeasure[]): string {
  const rows = measures
    .filter((m) => m.synthetic)
    .map((m) => {
      const g = goalOf(m.backtest);
      return `| \`${m.seed}\` | ${g.cells} | ${fmt(g.min, 2)} / ${fmt(g.median, 2)} | ${g.met} of ${g.cells} | ${fmt(g.reference_min, 2)} | ${g.precision.map((p) => fmt(p, 2)).join(', ')} (${g.precision_met} of ${g.precision.length}) |`;
    });
  if (rows.length === 0) return 'No synthetic city: the loaded city has no truth file, so only the realized measures below apply.';
  return `| City | Band x cut cells | Headroom closed by the score, expected AUC: lowest / median | Cells at ${HEADROOM_GOAL} or more | Headroom closed by the reference: lowest | Pooled precision at k: headroom closed per cut |
|---|---|---|---|---|---|
${rows.join('\n')}`;
}

function expectedTable(backtest: BaselineBacktest): string {
  const head = `| Cut | Band | Buildings | Outcomes (realized / expected) | ${RANKINGS.map((r) => NAMES[r]).join(' | ')} | Best baseline | Headroom closed: score | reference |`;
  const rows = cells(backtest).map(({ cut, band: b }) => {
    const e = b.expected_auc;
    return `| ${cut} | ${b.band} | ${b.buildings} | ${b.positives} / ${fmt(b.expected_positives, 1)} | ${RANKINGS.map((r) => fmt(e?.[r])).join(' | ')} | ${b.headroom_closed?.best_baseline ?? 'n/a'} | ${fmt(b.headroom_closed?.score, 2)} | ${fmt(b.headroom_closed?.reference, 2)} |`;
  });
  return [head, `|${'---|'.repeat(RANKINGS.length + 7)}`, ...rows].join('\n');
}

function realizedTable(backtest: BaselineBacktest): string {
  const head = `| Cut | Band | Outcomes | ${RANKINGS.map((r) => NAMES[r]).join(' | ')} | Standard error of the score's AUC |`;
  const rows = cells(backtest).map(({ cut, band: b }) => `| ${cut} | ${b.band} | ${b.positives} | ${RANKINGS.map((r) => fmt(b.realized_auc[r])).join(' | ')} | ${fmt(b.realized_auc_se)} |`);
  return [head, `|${'---|'.repeat(RANKINGS.length + 4)}`, ...rows].join('\n');
}

function precisionTable(backtest: BaselineBacktest): string {
  const head = `| Cut | Buildings | k | Expected: ${RANKINGS.map((r) => NAMES[r]).join(' | ')} | Headroom closed: score | reference | Realized: score | best baseline |`;
  const rows = backtest.cuts.map(({ cut, pooled_precision: p }) => {
    const best = p.headroom_closed?.best_baseline ?? BASELINES.reduce((a, b) => (p.realized[b] > p.realized[a] ? b : a));
    return `| ${cut} | ${p.buildings} | ${p.k} | ${RANKINGS.map((r) => fmt(p.expected?.[r])).join(' | ')} | ${fmt(p.headroom_closed?.score, 2)} | ${fmt(p.headroom_closed?.reference, 2)} | ${fmt(p.realized.score)} | ${fmt(p.realized[best])} (${best}) |`;
  });
  return [head, `|${'---|'.repeat(RANKINGS.length + 7)}`, ...rows].join('\n');
}

function gradeOutcomeTable(backtest: BaselineBacktest): string {
  const head = '| Band | Grade | Building-cuts | Share with a serious outcome in the next 12 months | Mean probability (truth file) |';
  const rows = backtest.grade_outcomes.map((g) => `| ${g.band} | ${g.grade} | ${g.buildings} | ${fmt(g.realized_rate)} | ${fmt(g.expected_rate)} |`);
  return [head, '|---|---|---|---|---|', ...rows].join('\n');
}

function calibrationTable(backtest: BaselineBacktest): string {
  const rows = backtest.calibration.map(
    (c) =>
      `| ${c.tier} | ${c.buildings} | ${c.mean_move_next_refresh} | ${c.share_grade_changed_next_refresh} | ${c.share_same_grade_next_cut} | ${c.interval_covers_next_cut} |`,
  );
  const byGrade = backtest.grade_tiers.map((g) => `| ${g.grade} | ${g.tier} | ${g.buildings} | ${g.share_same_grade_next_cut} |`);
  return [
    '| Confidence tier (at the cut) | Building-cuts | Mean move of total_score at the refresh a month later | Share changing grade at that refresh | Share with the same grade 12 months later | Share whose total 12 months later is within the interval |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Goal: in every tier the interval covers the total 12 months later 60-80% of the time; within each grade, the high tier keeps its grade at least as often as the medium tier.',
    '',
    '| Grade at the cut | Confidence tier | Building-cuts | Share with the same grade 12 months later |',
    '|---|---|---|---|',
    ...byGrade,
  ].join('\n');
}

function resultsTable(report: ValidationReport): string {
  const ph = report.public_housing;
  const phGrades = ['A', 'B', 'C', 'D', 'F'].filter((g) => ph.grade_distribution[g]).map((g) => `${g}: ${ph.grade_distribution[g]}`).join(', ') || 'none';
  const grades = ['A', 'B', 'C', 'D', 'F'].map((g) => `${g} ${report.grade_distribution[g] ?? 0} (${pct(report.grade_distribution[g] ?? 0, report.buildings)})`).join(', ');
  return `| Measure | Value |
|---|---|
| Grades as of ${report.as_of} | ${grades} |
| Public housing: graded, not ranked | ${ph.buildings} buildings${ph.truth_marked === null ? '' : ` (truth.csv marks ${ph.truth_marked})`}; grades ${phGrades} |
| Spearman correlation of total_score with the latent distress (as of ${report.as_of}) | ${report.spearman_latent ?? 'n/a'} |
| Backtest AUC at ${report.cut}, outcomes from the events | ${report.backtest.auc_event_outcomes} |
| Backtest AUC at ${report.cut}, outcomes of the truth file | ${report.backtest.auc_truth_outcomes ?? 'n/a'} |
| Buildings meeting the HPD AEP selection criteria | ${report.anchors.aep_qualifying}, of which graded D or F: ${report.anchors.aep_qualifying_graded_d_or_f} (${pct(report.anchors.aep_qualifying_graded_d_or_f, report.anchors.aep_qualifying)}) |
| "Clean" buildings (no open B/C violations, no complaint in a year, valid registration) | ${report.anchors.clean}, of which graded D or F: ${report.anchors.clean_graded_d_or_f} (${pct(report.anchors.clean_graded_d_or_f, report.anchors.clean)}) |`;
}

function seedSection(m: SeedMeasure): string {
  const title = m.synthetic ? `Synthetic city, seed \`${m.seed}\` (${m.buildings} buildings)` : `The loaded city (${m.buildings} buildings)`;
  const expected = m.synthetic
    ? `### Expected AUC by unit band and cut date

${expectedTable(m.backtest)}

`
    : '';
  return `## ${title}

${resultsTable(m.report)}

${expected}### Realized AUC (0/1 outcomes)

${realizedTable(m.backtest)}

### Precision at k, all bands pooled

${precisionTable(m.backtest)}

### Outcome rate of each grade by unit band${m.synthetic ? ' (measured on the synthetic city)' : ''}

Every building of 3+ units at every cut date, by its grade at the cut. ${m.synthetic ? 'These rates are measured on the synthetic city: they are not probabilities calibrated on real outcomes.' : ''}

${gradeOutcomeTable(m.backtest)}

### Confidence calibration

${calibrationTable(m.backtest)}`;
}

function constantsSection(): string {
  return `## The fitted constants

The scorer reads them from \`libs/scoring/src/fitted-constants.ts\`, written by \`--calibrate\` (fitted by: ${FITTED_MODEL.fitted_by === null ? 'not fitted yet' : `\`${FITTED_MODEL.fitted_by}\``}).
Procedure: libs/score-runner/src/calibration.ts: the first city scored at its earliest cut date with every half-life factor of
${CALIBRATION_GRID.half_life_factors.join(', ')}; for each, and each knee of ${CALIBRATION_GRID.knees.join(', ')}, a logistic regression of the realized outcomes of the
following 12 months on ln(log-health + knee) of each component and ln(units / 3), coefficients non-negative, Newton's method,
no random start; the pair with the highest likelihood is kept; the buildings of up to ${CALIBRATION_GRID.small_building_units} units then take the half-life factor of
the same grid at which that fit's ranking of them has the highest likelihood (smallBuildingFactor), and a level on their combined log-health
from a logistic regression of every training building's outcome on the ranking and on being small (smallBuildingLevel); the scale is the smallest of ${CALIBRATION_GRID.scales.join(', ')} at which the public
anchors' floors lift at most ${CALIBRATION_GRID.max_floor_share * 100}% of the training buildings. Then (libs/score-runner/src/confidence-calibration.ts)
every building of the first city scored at that cut date and a year later: the expected move by least squares of the absolute
change of the total on the confirmed records' spread and 1 - corroboration, and per confidence tier the interval's multiplier
(of 0 to 12 by 0.05) whose coverage of the next year's total is nearest to ${TARGET_COVERAGE * 100}%. The later cut dates and the second city are out of sample.

| Constant | Value |
|---|---|
${COMPONENT_KEYS.map((k) => `| Weight of \`${k}\` | ${FITTED_MODEL.component_weights[k]} |`).join('\n')}
| Knee (ln(log-health + knee)) | ${FITTED_MODEL.knee} |
| Half-life factor (on every signal's half-life) | ${FITTED_MODEL.half_life_factor} |
| Half-life factor of the buildings of up to ${FITTED_MODEL.small_buildings.to_units} units | ${FITTED_MODEL.small_buildings.half_life_factor} |
| Level of the buildings of up to ${FITTED_MODEL.small_buildings.to_units} units (on the combined log-health) | ${FITTED_MODEL.small_buildings.level} |
| Scale (on the combined log-health) | ${FITTED_MODEL.scale} |
| Size exponent (+ exponent x ln(units / ${FITTED_MODEL.size.from_units}) in the ranking) | ${FITTED_MODEL.size.exponent} |
| Expected move of the total in 12 months (points): base, per point of the confirmed records' spread, per unit of 1 - corroboration | ${FITTED_MODEL.confidence.move.base}, ${FITTED_MODEL.confidence.move.spread}, ${FITTED_MODEL.confidence.move.uncorroborated} |
| Interval half-width in expected moves, by confidence tier | ${Object.entries(FITTED_MODEL.confidence.interval_multipliers).map(([tier, k]) => `${tier} ${k}`).join(', ')} |`;
}

export function renderValidation(measures: readonly SeedMeasure[], run: { command: string; seconds: number }): string {
  const first = measures[0];
  return `# Validation of ${SCORER_ID}

Reproduce with \`${run.command}\` (about ${Math.ceil(run.seconds / 60)} minutes on the machine below). The harness reads
the events and, for a synthetic city, its hidden \`truth.csv\`; the scorer never reads the truth file. On a loaded real city
(\`--loaded\`) the same backtest runs with labels from the events and no expected columns.

- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}
- Date: ${new Date().toISOString().slice(0, 10)}
- Data: ${measures.map((m) => (m.synthetic ? `synthetic city of ${m.buildings} buildings (seed \`${m.seed}\`)` : `the loaded city (${m.buildings} buildings)`)).join('; ')}; as of ${first?.report.as_of ?? 'n/a'}, cut dates ${first?.backtest.cuts.map((c) => c.cut).join(', ') ?? 'n/a'}

## The goal and where the model stands

Goal: in every unit band and cut date of both synthetic cities, the score closes at least ${HEADROOM_GOAL} of the expected-AUC gap between
the best simple baseline and the Bayes ranking, and at least ${HEADROOM_GOAL} of that gap in the pooled precision at k.

${summary(measures)}

## What is measured

At each cut date, buildings of 3+ units (public housing left out: HPD does not inspect or enforce there, docs/methodology.md,
Known limits) are ranked for a serious outcome in the 12 months after the cut: an HPD, FDNY or DOB vacate order, entry into
AEP or UCP, an emergency repair of $1,000 or more, or a month with a burst of class C violations.

- **Expected AUC**: the AUC with the generator's own probability of that outcome (truth.csv \`p_serious_12m_after_<cut>\`: its
  monthly hazards given the hidden state at the cut, the shocks still to come integrated over) as a soft label. It is the mean
  AUC over every draw of the outcomes, without the noise of one draw, so a band of a few hundred buildings can be judged.
- **Bayes**: the ranking by that probability itself, the best any scorer can expect; **headroom closed** =
  (AUC of the score - AUC of the best baseline) / (AUC of Bayes - AUC of the best baseline).
- **Reference**: a logistic regression on the same records (the seven components' log-health, ln(units / 3) and the
  baselines), fitted to the realized outcomes of the same cut date: what a plain fit reaches, in sample.
- **Baselines**: ${BASELINES.map((b) => `\`${b}\` (${BASELINE_DESCRIPTIONS[b]})`).join('; ')}.
- **Precision at k**: one ranking of all bands, k = ${ACTIONABLE_PER_100K_UNITS} buildings per 100,000 units (at least ${MIN_K}); expected
  precision is the mean probability of the k first, realized precision the share of them with an outcome; ties at the
  cut-off share the places.
- Realized figures (0/1 outcomes of the one draw) stay beside them with the standard error of the score's AUC
  (Hanley and McNeil 1982).

${constantsSection()}

${measures.map(seedSection).join('\n\n')}

## Reading these numbers

The synthetic city draws every record from a hidden latent condition through processes that share no code, threshold or rule
with the scorer (a test guards that the generator imports nothing from it). Its serious outcomes are drawn from the hidden
condition before any record and then leave their records, so the label is not a rule applied to what the scorer reads. These
numbers say how well the model recovers the hidden condition from the kinds of records the real city publishes; they are not
a claim about accuracy on New York. The backtest on real data (loaded with \`npm run bhis -- ingest\`, then
\`npm run bhis -- validate --loaded --database <name>\`) is the test that matters, and this harness runs it unchanged.
`;
}
