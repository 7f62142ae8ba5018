import { SCORER_ID, SEVERITIES } from '@bhis/domain';
import { AGE_BUCKETS } from './age-buckets';
import { COMPONENT_MODELS, COMPLAINT_RATIO_SCALE, COMPONENT_WEIGHTS } from './components';
import {
  CONFIDENCE_FLAG_RULES,
  CONFIDENCE_TIERS,
  CONFIDENCE_WEIGHTS,
  EXPECTED_FAMILIES,
  INSUFFICIENT_MAX_SCORE,
  MIN_EXPECTED_MOVE,
  MULTI_BUILDING_FACTOR,
  PERMITS_EXPECTED_FROM_UNITS,
  PRECISION_PER_EXPECTED_MOVE,
} from './confidence';
import { DATA_QUALITY_CLASSES } from './data-quality';
import { EXPLANATION_EVENT_IDS, EXPLANATION_TOP_N } from './explanation';
import { CADENCE_ALLOWANCES, STALE_TO_ZERO_FACTOR } from './freshness';
import { FLAG_DEFINITIONS } from './flags';
import { GRADE_BANDS, maxScoreOf, minScoreOf, UNCERTAIN_LABEL } from './grades';
import { KNOWN_LIMIT_RULES } from './known-limits';
import { KNOWN_LIMIT_GRADES } from './score-building';
import { MIN_PEER_GROUP_SIZE } from './health-score';
import { HEAT_SEASON } from './heat-season';
import {
  AREA_PROPENSITY_BOUNDS,
  BUILDING_TYPES,
  ERAS,
  MODERN_FROM,
  PEER_COMPLAINT_RATE_PRIOR,
  PRE_WAR_BEFORE,
  SIZE_BANDS,
} from './peer-groups';
import { AEP_CRITERIA, ANCHOR_RULES, UCP_CRITERIA, WATCHLIST_CRITERIA, anchorTarget } from './public-anchors';
import { RowSignal, SEVERITY_WEIGHT_SETS, SeverityWeights } from './signals';
import { SOURCE_KEYS } from '@bhis/sources';
import { FAMILY_DESCRIPTIONS, FAMILY_OF_SOURCE, SOURCE_FAMILIES } from './source-families';
import { MAX_COMPONENT_IN_TOTAL } from './total-score';
import { CALIBRATION_GRID, FITTED_MODEL } from './fitted-model';
import { GRADE_OUTCOME_RATES } from './grade-outcome-rates';
import { MIN_RATE_UNITS, SIZE_NEUTRALITY_TOLERANCE, steadyStateExposure } from './unit-rates';

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');
const units = (min: number, max: number | null) => (max === null ? `${min}+` : `${min}-${max}`);
const fmt = (n: number) => (Number.isFinite(n) ? String(n) : 'none');

function severityName(weights: SeverityWeights): string {
  return SEVERITY_WEIGHT_SETS.find((set) => set.weights === weights)?.name ?? 'custom';
}

function signalRow(signal: RowSignal): string[] {
  const window = [
    signal.min_age_months === undefined ? '' : `older than ${signal.min_age_months} months`,
    signal.window_months === undefined ? '' : `last ${signal.window_months} months`,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `\`${signal.key}\``,
    signal.description,
    list(signal.event_types),
    signal.categories ? list(signal.categories) : 'all',
    severityName(signal.severity),
    signal.status,
    signal.measure === 'amount' ? 'dollars / 1,000' : 'count',
    fmt(signal.weight),
    fmt(round3(signal.half_life_years * FITTED_MODEL.half_life_factor)),
    window || 'all ages',
    signal.normalization,
    fmt(signal.cap),
  ];
}

function componentSubsections(): string {
  return COMPONENT_MODELS.map((model) => {
    const scale =
      model.scale_mode === 'fixed'
        ? `Scale ${model.scale}: score = 100 x (1 - exp(-index / ${model.scale})).`
        : `Scale ${model.scale} x the peer complaint index (the decayed complaint count per rate unit of a building complaining at its peer rate, see Normalization): a building complaining exactly at its peer rate scores ${(100 * (1 - Math.exp(-1 / model.scale))).toFixed(1)}.`;
    const derived = model.derived.length
      ? `\n\nSignals computed from facts or derived features:\n\n${model.derived.map((d) => `- \`${d.key}\` (${d.description}): ${d.rule}`).join('\n')}`
      : '';
    return `### ${model.title} (\`${model.key}\`, ${model.code})

${model.purpose}

Weight in the total: ${COMPONENT_WEIGHTS[model.key]}. ${scale}

${table(
  ['Signal', 'What', 'Event types', 'Categories', 'Severity weights', 'Status', 'Measure', 'Weight', 'Half-life (years)', 'Window', 'Normalization', 'Cap (index points)'],
  model.signals.map(signalRow),
)}${derived}`;
  }).join('\n\n');
}

function anchorTables(): string {
  return `${table(
    ['Rule', 'Kind', 'Total becomes', 'Condition'],
    ANCHOR_RULES.map((rule) => [
      `\`${rule.key}\``,
      rule.kind,
      rule.kind === 'floor' ? `at least ${anchorTarget(rule)} (grade ${rule.grade})` : `at most ${anchorTarget(rule)} (grade ${rule.grade})`,
      rule.description,
    ]),
  )}

The ceiling is applied first and the floors after it, so a floor wins when both apply. Every adjustment is recorded in the
building's explanation (\`adjustments\`: rule, total before and after).

AEP selection criteria as implemented:

${table(
  ['Units', 'Open B/C violations per unit (issued in the last 5 years)', 'Emergency repair charges (last 5 years)'],
  AEP_CRITERIA.map((c) => [units(c.min_units, c.max_units), c.open_bc_per_unit, `$${c.emergency_repair_charges.toLocaleString('en-US')}`]),
)}

Worst Landlord Watchlist level as implemented (applied to a single building):

${table(['Units', 'Open B/C violations per unit (any age)'], WATCHLIST_CRITERIA.map((c) => [units(c.min_units, c.max_units), c.open_bc_per_unit]))}

Underlying Conditions Program level as implemented (B/C leak or mold violations in the last 12 months, any status, divided by units, since
the histogram does not say which unit a violation is in):

${table(['Units', 'Share of units'], UCP_CRITERIA.map((c) => [units(c.min_units, c.max_units), c.unit_share]))}`;
}

function titleSection(): string {
  return `<!-- Generated by renderMethodology() in libs/scoring from the model's constants. Do not edit by hand:
     regenerate with UPDATE_METHODOLOGY=1 npx jest --selectProjects scoring -t methodology -->
# Methodology: distress score \`${SCORER_ID}\``;
}

function purposeSection(): string {
  return `## Purpose and limits

The distress score ranks New York City residential buildings by **chronic, maintenance-driven distress**: water damage and mold,
heat, pests, failing building systems, and owners who do not correct them. It is built from public records only.

- It is a **ranking signal, not a verdict**: not a legal finding, a safety certification or a unit-level inspection.
- **Complaints are reports**, not confirmed violations. They weigh less than violations and are measured against comparable
  buildings and the area's propensity to complain.
- **Sudden catastrophes are flagged, not scored**: events of category \`fire\` (fire damage, FDNY and fire vacates) and events
  marked \`scoring_excluded\` (FEMA disaster repairs) never move a score; they raise flags.
- **Financial default is not the target**: tax lien listings, ECB balances due and emergency repair charges feed only the
  financial distress component, which has the smallest weight.
- Anyone presenting a result should keep its dates, statuses, confidence and caveats with it.

Higher scores mean more distress: 0 is no public-record sign of distress, 100 is the most distressed.`;
}

function inputsSection(): string {
  const bucketRows = AGE_BUCKETS.map((b) => [
    `\`${b.key}\``,
    b.min_months === null ? 'no date' : b.max_months === null ? `${b.min_months} months or more` : `${b.min_months} to ${b.max_months} months`,
    b.representative_years,
  ]);
  return `## Inputs

For each building and an \`as_of\` date (every age is relative to it, the model never reads a clock):

- **Building facts**: BBL, residential units, total units, year built, building class, number of buildings on the lot,
  HPD jurisdiction, HPD legal units, end date of the last HPD registration.
- **Event histogram**: events grouped by source, event type, category, severity, open (status open or active),
  scoring-excluded and age bucket, with their count, the sum of their money amounts (emergency repair charges, ECB balance due,
  litigation penalties), the newest event ids and the newest date.
- **Source freshness**: per source, last refresh, newest record date and cadence.
- **Special aggregates**: heat and hot water complaints (HPD and 311) in the heat season (${HEAT_SEASON.description}: the current season when
  \`as_of\` is inside one, otherwise the last completed one).
- **Optional context**: the area reporting propensity (the ZIP code's housing complaints per recorded condition over the city's
  ratio, see Known biases) and a measured peer complaint rate.

Age buckets (an event is in a bucket when \`as_of - max < occurred_on <= as_of - min\`, in calendar months; later dates fall in
the first bucket). The representative age is what decay is computed at:

${table(['Bucket', 'Age', 'Representative age (years)'], bucketRows)}

Source families: sources of one family are not independent of each other; different families are.

${table(
  ['Family', 'Sources', 'What'],
  SOURCE_FAMILIES.map((family) => [`\`${family}\``, list(SOURCE_KEYS.filter((key) => FAMILY_OF_SOURCE[key] === family)), FAMILY_DESCRIPTIONS[family]]),
)}`;
}

function computationSection(): string {
  const severityRows = SEVERITY_WEIGHT_SETS.map((set) => [set.name, ...SEVERITIES.map((s) => fmt(set.weights[s] ?? 0)), set.use]);
  return `## How a component is computed

Each component is a sum of signals. A row signal takes the histogram cells it matches (event types, categories, status,
window) and sums

    quantity x severity weight x 0.5 ^ (representative age / half-life)

where quantity is the event count or the money amount in thousands of dollars. Its index points are
\`min(cap, weight x that sum / denominator)\`. The component index is the sum of its signals' points, and

    component score = 100 x (1 - exp(-index / scale)), rounded to one decimal

a saturating curve: the first problems move the score most, and no count can push it past 100.

**Open and closed.** Open violations and orders are separate signals from closed ones, with a longer half-life and a higher
weight: an open violation is a present condition; a closed one says a condition existed.

**Decay.** Every signal has a half-life; older events weigh less, never more. Records without a date count as 5+ years old.

**Caps.** Each signal has a cap on its index points, so one kind of record cannot carry a component alone.

**Normalization (size).** \`per_unit\` signals are divided by the building's rate units: the larger of PLUTO's residential units and
HPD's legal units, with a floor of ${MIN_RATE_UNITS}. From ${MIN_RATE_UNITS} units up the rate is the plain per-unit rate, so a big building with
the same per-unit rates as a small one gets the same component scores; below, the floor damps single events at one- and
two-family homes (one violation at a house counts as a third of a violation per unit, not a whole one). \`per_building\` signals
(orders, lawsuits, listings, inspections) describe the building as a whole and are not divided.

**Complaints.** \`complaints_per_unit\` signals are divided by rate units and by the area complaint propensity (bounded to
${AREA_PROPENSITY_BOUNDS.min}-${AREA_PROPENSITY_BOUNDS.max}; 1 when not supplied). The complaint burden is then measured against the peer rate: its scale is
${COMPLAINT_RATIO_SCALE} times the decayed complaint count per unit that a building complaining at its peer rate accumulates (peer rate x
${steadyStateExposure(1).toFixed(3)}, the steady-state exposure of a 1-year half-life). Prior peer rates (complaints per unit per year; a run may
supply measured peer medians instead):

${table(['Size band', 'Complaints per unit per year'], SIZE_BANDS.map((b) => [`\`${b.key}\``, PEER_COMPLAINT_RATE_PRIOR[b.key]]))}

Severity weights (a severity with weight 0 is not counted by the signal):

${table(['Set', ...SEVERITIES, 'Used for'], severityRows)}`;
}

function componentsSection(): string {
  return `## Components

${componentSubsections()}`;
}

const HALF_LIFE_FACTORS_TEXT = CALIBRATION_GRID.half_life_factors.join(', ');
const KNEES_TEXT = CALIBRATION_GRID.knees.join(', ');
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The measured outcome rate of each grade per unit band (grade-outcome-rates.ts, written by the validation run). */
function gradeOutcomeSection(): string {
  if (GRADE_OUTCOME_RATES.cities.length === 0) return '';
  const grades = ['A', 'B', 'C', 'D', 'F'];
  const bands = [...new Set(GRADE_OUTCOME_RATES.cities[0].rows.map((r) => r.band))];
  const rows = GRADE_OUTCOME_RATES.cities.flatMap((city) =>
    bands.map((band) => [
      '`' + city.seed + '`',
      band,
      ...grades.map((grade) => {
        const row = city.rows.find((r) => r.band === band && r.grade === grade);
        return row === undefined ? '' : `${fmt(row.realized_rate)} (${row.buildings})`;
      }),
    ]),
  );
  return `

### Outcome rate of each grade by unit band (measured on the synthetic city)

The share of buildings of each grade with a serious outcome (the validation's label: a vacate order, entry into AEP or UCP, an
emergency repair of $1,000 or more, or a month with a burst of class C violations) in the 12 months after each cut date, with
the building-cuts in parentheses, measured by \`${GRADE_OUTCOME_RATES.measured_by}\` on the synthetic cities (docs/methodology-validation.md).
**These are rates measured on the synthetic city, not probabilities calibrated on real outcomes**: the API serves no probability,
and a grade means a different risk in a larger building (size is in the total, so a larger building reaches a grade with
fewer records per unit).

${table(['City', 'Band', ...grades], rows)}`;
}

function totalScoreSection(): string {
  const weights = COMPONENT_MODELS.map((m) => [`\`${m.key}\``, m.code, m.title, COMPONENT_WEIGHTS[m.key]]);
  return `## Total score, grade and label

The total combines the seven published (one-decimal) component scores on a log scale. With h = -ln(1 - min(score,
${MAX_COMPONENT_IN_TOTAL}) / 100), each component's log-health (its index over its scale):

    G     = prod over components of ((h + knee) / knee) ^ weight
    H     = scale x knee x (G - 1) x size,  size = (max(units, ${FITTED_MODEL.size.from_units}) / ${FITTED_MODEL.size.from_units}) ^ ${FITTED_MODEL.size.exponent},  knee = ${FITTED_MODEL.knee},  scale = ${FITTED_MODEL.scale}
    total = 100 x (1 - exp(-H))

rounded to an integer, then held to the public anchors below. Buildings are ranked by the sum of weight x ln(h + knee) plus
${FITTED_MODEL.size.exponent} x ln(units / ${FITTED_MODEL.size.from_units}): a component that doubles moves the total by about the same step at
any level (past the knee), so the gap between a handful of records and none counts as much as the gap between many and very
many, and size counts as much as it drives the outcomes (the serious outcomes of a building grow with its size while the
components are per-unit rates). With the weights summing to 1, seven equal components of a ${FITTED_MODEL.size.from_units}-unit building give that same
log-health; a building without records is at 0 whatever its size. The combination is monotone: raising any component never
lowers the total.

The weights, the knee, the size exponent and the factor on every signal's half-life (${FITTED_MODEL.half_life_factor}: the half-lives listed under
Components include it) are fitted, not chosen: \`bhis validate --calibrate\` scores the first city at its earliest cut date with
each half-life factor of ${HALF_LIFE_FACTORS_TEXT}, fits for each knee of ${KNEES_TEXT} a logistic regression of the serious outcomes of the
following 12 months on ln(h + knee) of each component and ln(units / 3) (coefficients kept non-negative), keeps the pair with the
highest likelihood, then gives the buildings of up to ${FITTED_MODEL.small_buildings.to_units} units their own factor on every half-life
(${FITTED_MODEL.small_buildings.half_life_factor}, of the same grid: the one at which that fit's ranking of the small training buildings has the highest likelihood; a
building of a few units leaves a few records a year, and a longer memory ranks its hidden condition better than the short one
that suits the many records of a large building) and multiplies their combined log-health by a fitted level
(${FITTED_MODEL.small_buildings.level}: exp of the coefficient of being small over that of the ranking, in a logistic regression of every training
building's outcome on both, so the records a longer memory keeps do not lift a small building above larger ones more than its
outcomes do), takes as the scale the smallest of ${CALIBRATION_GRID.scales.join(', ')} at which the public anchors' floors (below) lift at most
${CALIBRATION_GRID.max_floor_share * 100}% of the training buildings (the anchors guard what the records miss; a total that needs them for more buildings sits below
the levels of the published rules; the scale does not change the ranking otherwise), and writes libs/scoring/src/fitted-constants.ts, which the scorer reads (libs/score-runner/src/calibration.ts; fitted by: ${FITTED_MODEL.fitted_by === null ? 'not fitted yet' : `\`${FITTED_MODEL.fitted_by}\``}).
A component the fit gives no weight still scores and is published (the contract has seven), but does not move the total.

${table(['Component', 'Code', 'Title', 'Weight'], weights)}

Grades apply to the total and to each component with the same bands. There is no grade E (the scale follows US letter grades,
A B C D F).

${table(
  ['Grade', 'Score', 'Label', 'Meaning'],
  GRADE_BANDS.map((band) => [band.grade, `${band.min_score}-${maxScoreOf(band.grade)}`, band.label, band.meaning]),
)}${gradeOutcomeSection()}`;
}

function publicAnchorsSection(): string {
  return `## Public anchors

The model is calibrated against public New York City enforcement criteria, and the total is held to them:

${anchorTables()}

The rules come from the programs' published criteria: HPD, "Alternative Enforcement Program" selection criteria (NYC
Administrative Code 27-2153: open class B and C violations per unit issued in the last five years, and emergency repair charges);
HPD, "Underlying Conditions Program" (NYC Administrative Code 27-2153.1 and Local Law 6 of 2018: leak and mold violations in a share
of the units); NYC Public Advocate, "Worst Landlord Watchlist" methodology (average open class B and C violations per unit). Every
building carries \`published_rules\` with, for each rule, whether it is met, the units it was applied with, the measured figures
and the thresholds of its size band, so a user can check the flags \`aep-criteria-met\`, \`ucp-criteria-met\` and
\`watchlist-criteria-met\` by hand. UCP counts violations where the program counts affected units (the histogram does not say
which unit a violation is in): an approximation that can only over-count.

These hold by construction and are tested: a building meeting the AEP selection criteria grades D or F whatever else its record
holds; a building with no open B/C violation, no complaint in the last 12 months and a valid registration (where required) never
grades D or F; an active AEP enrollment alone grades at least D. Further tested properties: adding an open class C violation never
lowers the total; a building ten times bigger with the same per-unit rates scores within ${SIZE_NEUTRALITY_TOLERANCE} points (20+ units; the residual comes from the
size bands' peer complaint rates); moving an event to a
more recent bucket never lowers the total (two documented exceptions: an open violation younger than 3 months is still inside its
correction window and not yet overdue for management quality, and recent job filings earn more reinvestment credit); fire and
scoring-excluded events never change a component.`;
}

function healthScoreSection(): string {
  return `## Health score

\`health_score\` = round(100 x the share of the building's peer group whose total score is at least as high as the building's).
100 means no peer is healthier, 0 that every peer is. It is computed in a second pass over all buildings of a run (or from the
stored sorted totals per peer group in incremental runs). Peer groups with fewer than ${MIN_PEER_GROUP_SIZE} buildings are compared with
their size band, and a size band that small with the whole run. Within a peer group, health never rises when the total rises; across
peer groups the two differ, as a rank differs from a level.`;
}

function peerGroupsSection(): string {
  return `## Peer groups

A peer group is \`<size band>_<era>_<type>\`, for example \`large_pre-war_walkup\`. All combinations below are allowed values.

${table(['Size band', 'Residential units'], SIZE_BANDS.map((b) => [`\`${b.key}\``, b.description]))}

${table(['Era', 'Year built'], ERAS.map((e) => [`\`${e.key}\``, e.description]))}

Pre-war means built before ${PRE_WAR_BEFORE}, modern ${MODERN_FROM} or later.

${table(['Type', 'PLUTO building classes'], BUILDING_TYPES.map((t) => [`\`${t.key}\``, t.classes]))}`;
}

function dataQualitySection(): string {
  return `## Data quality

Evidence families are the families above except \`property\`.

${table(['Class', 'Rule'], DATA_QUALITY_CLASSES.map((c) => [`\`${c.key}\``, c.rule]))}`;
}

function confidenceSection(): string {
  return `## Confidence

\`confidence.score\` = ${CONFIDENCE_WEIGHTS.coverage} x coverage + ${CONFIDENCE_WEIGHTS.freshness} x freshness + ${CONFIDENCE_WEIGHTS.precision} x precision (times ${MULTI_BUILDING_FACTOR} on a lot with several buildings), two decimals.
Coverage and freshness look only at the sources that apply to the building, never at its own records; corroboration and the
expected move ignore tenant reports, and a tenant report can only narrow the grade margin, so a new complaint can never raise
confidence (a property test over 1,000 random histories).

- **Coverage**: the share of the families expected for this kind of building whose sources have been loaded (an absent record in a
  loaded source is evidence too: nothing was found). Buildings of ${PERMITS_EXPECTED_FROM_UNITS}+ units are also expected to have job filings (\`permits\`).

${table(['Kind of building', 'Expected families'], Object.entries(EXPECTED_FAMILIES).map(([kind, families]) => [`\`${kind}\``, list(families)]))}

  \`multiple-dwelling-hpd\`: 3+ units in HPD jurisdiction; \`multiple-dwelling-other\`: 3+ units outside it; \`small-home\`: fewer than 3 units.
- **Freshness**: the mean, over the families expected, of their sources' freshness. A source is fresh (1) while both its
  last refresh and its newest record are within the allowance of its cadence, and falls linearly to 0 at ${STALE_TO_ZERO_FACTOR} times the
  allowance; a source never loaded is 0.

${table(
  ['Cadence', 'Refresh allowance (days)', 'Newest record allowance (days)'],
  Object.entries(CADENCE_ALLOWANCES).map(([cadence, a]) => [cadence, fmt(a.refresh_days), fmt(a.record_days)]),
)}

  Unknown cadences are read as monthly.
- **Precision**: how far the total sits from its grade's cut-offs, in the moves a total of its kind is expected to make in
  12 months: min(1, ${PRECISION_PER_EXPECTED_MOVE} x margin / expected move), so that with full coverage and freshness a margin of one
  expected move reaches the high tier: a high-confidence grade survives the move its total is expected to make in a year. The margin is the number of points the total can move before its grade
  changes: up to the next grade's lowest score, and down to the grade's own lowest score from the lower of the total and the
  total of the confirmed records alone (everything but tenant reports, anchored and held as the total is); grade A has no
  cut-off below and F none above. The part of a total that rests on tenant reports alone never makes its grade look surer, so
  one new complaint can narrow the margin (it raises the total) and never widen it.
- **Expected move**: ${expectedMoveText()} points, at least ${MIN_EXPECTED_MOVE};
  the spread is half the difference of the confirmed records' total with every count moved one Poisson standard deviation
  (its square root) down and up. The three coefficients are fitted (least squares of the absolute move of the total from the
  training cut to the next, libs/score-runner/src/confidence-calibration.ts); ${FITTED_MODEL.fitted_by === null ? 'not fitted yet' : `fitted by \`${FITTED_MODEL.fitted_by}\``}.
- **Interval**: \`confidence.interval\` is the total plus and minus the expected move times the multiplier of the building's tier
  (${CONFIDENCE_TIERS.map((t) => `${t.tier} ${FITTED_MODEL.confidence.interval_multipliers[t.tier]}`).join(', ')}), within 0-100: where the total is expected to be 12
  months later. Each multiplier is fitted so that the interval covers the next year's total of 70% of the training buildings of
  its tier (the same run).
- **Corroboration** (weighed through the expected move): independent families of confirmed records pointing the same way. Each
  active family among hpd_violations, dob, legal, emergency_repairs, financial, health and evictions (tenant reports left out)
  points to distress when it has an adverse confirmed event (severity critical, high or medium) in the last 2 years or an open
  critical/high one, and is quiet otherwise. Corroboration is the share of active families with the majority, times
  (0.4 + 0.6 x min(1, (majority - 1) / 2)), so one family alone cannot corroborate.
- \`primary_sources\`: distinct data sets with a record about the building (PLUTO always; HPD jurisdiction when in it; HPD
  registrations when a registration is known; every source with an event). \`active_families\`: evidence families with a record.

${table(['Tier', 'Score at least'], CONFIDENCE_TIERS.map((t) => [`\`${t.tier}\``, t.min_score]))}

A building with no confirmed record (nothing but tenant reports, or nothing at all), and a building the model cannot know (see
Known limits), is \`insufficient\` whatever its dimensions, and its score is held at ${INSUFFICIENT_MAX_SCORE}. \`confidence.reason\` says why in
words when the model cannot know, and is null otherwise.

${table(['Confidence flag', 'Rule'], CONFIDENCE_FLAG_RULES.map((f) => [`\`${f.key}\``, f.rule]))}`;
}

function flagsSection(): string {
  return `## Flags

Alert flags, reported in this order. "Open" means status open or active; windows use the age buckets.

${table(['Flag', 'Rule'], FLAG_DEFINITIONS.map((f) => [`\`${f.key}\``, f.rule]))}`;
}

function explanationsSection(): string {
  return `## Explanations

For every component the explanation lists its ${EXPLANATION_TOP_N} strongest signals: key, description, contribution in score points (the
component score shared out in proportion to the signals' index points; the reinvestment credit appears with a negative
contribution), the number of events, and up to ${EXPLANATION_EVENT_IDS} newest event ids, so a client can show why a building has its grade.`;
}

function knownLimitsSection(): string {
  return `## Known limits

Where the public record cannot support a grade at either end of the scale, the building still gets a grade (A-F, as every
building does) but its total is held between the bottom of grade ${KNOWN_LIMIT_GRADES.from} (${minScoreOf(KNOWN_LIMIT_GRADES.from)}) and the top of grade ${KNOWN_LIMIT_GRADES.to} (${maxScoreOf(KNOWN_LIMIT_GRADES.to)}) (adjustment
\`known-limit-hold\`), its confidence is \`insufficient\` with the flag and a \`confidence.reason\` in words, and the flag is also in
\`scores.flags\`. Such buildings stay out of the peer-group statistics of the health score, are listed apart
(\`uncertain_buildings\`) from the portfolio "worst" list, and monitors hear of their grade changes only when created with
\`include_uncertain: true\`.

${table(['Flag', 'Rule'], KNOWN_LIMIT_RULES.map((r) => [`\`${r.key}\``, r.rule]))}

How much better the score ranks than the simple rules an analyst would use instead (units alone, open B/C violations per unit,
the AEP and Watchlist rules, all records per unit), by unit band and cut date, is measured in docs/methodology-validation.md
(\`npm run validate\`) on two synthetic cities, in expectation: each ranking's AUC with the generator's own probability of the
outcome as a soft label, against the Bayes ranking by that probability, per unit band and cut date, with the share of the
gap between the best rule and the Bayes ranking the score closes. That file states where the score does and does not reach
the goal; the measured outcome rate of each grade per unit band is there too (measured on the synthetic city, not a
probability calibrated on real outcomes).

A building graded under a known limit is labelled \`${UNCERTAIN_LABEL}\`, never with the label of its grade ("Good",
"Excellent"...): its grade is held, not known, and \`confidence.reason\` (shown on its page) says why.

Public housing: HPD does not inspect, sue or repair NYCHA buildings (the Housing Authority answers to its own monitor), so the
HPD records that carry most of the score are structurally absent and a quiet record says nothing about conditions.`;
}

function knownBiasesSection(): string {
  return `## Known biases and their mitigation

- **311 reporting varies by neighbourhood and income.** Low-income neighbourhoods under-report: fewer complaints per actual
  problem (Kontokosta, Hong and Korsberg, "Equity in 311 Reporting: Understanding Socio-Spatial Differentials in the Propensity to
  Complain", Bloomberg Data for Good Exchange, 2017). The area propensity is therefore measured as housing complaints per recorded
  condition (HPD, DOB and ECB violations, vacate orders, emergency repairs) in the ZIP code over the twelve months before the
  month of \`as_of\`, relative to the city and shrunk toward 1 by 200 condition records (counted by the first run of the month and
  again by every full run; the other runs of the month read it back); complaint measures are divided by it (bounded to
  ${AREA_PROPENSITY_BOUNDS.min}-${AREA_PROPENSITY_BOUNDS.max}), so a complaint from an under-reporting area weighs more, not less. (A rate of complaints per unit
  would discount the most distressed areas for complaining more in total.) Complaints weigh less than violations, the complaint
  burden is measured against the peer rate, and the clean-record ceiling keeps a building without open violations or recent
  complaints out of D and F.
- **Small buildings have sparse data.** Rates use a ${MIN_RATE_UNITS}-unit floor so single events do not become extreme rates, and such
  buildings get the \`sparse-data-small-building\` confidence flag and a low or insufficient confidence tier.
- **HPD data covers multiple dwellings only.** HPD registrations, violations and litigation are not expected of one- and two-family
  homes or buildings outside HPD jurisdiction: coverage does not count them against such buildings, \`no-hpd-coverage\` says so,
  and their scores rest on DOB, complaint and other records.
- **Lots with several buildings** share one record: \`multi-building-lot\` lowers confidence.
- **Stale or missing sources** lower freshness and are named in \`stale-source:<key>\` flags. While a source that was loaded is
  stale and nothing new is recorded for a building, the building keeps its last good score (its current score and the history
  point of the run), so a grade never moves only because a feed stopped and its records aged; the first run after the feed
  returns compares with that held score, so a monitor hears the net change since what it was last told, never a change back
  from one it was not told (test: libs/score-runner/src/known-limits.int-spec.ts).
- **Old open violations** are common in HPD data (never closed administratively): open items decay with a long half-life rather
  than counting at full weight forever.`;
}

function constantsSection(): string {
  return `## Constants and where they come from

Every constant of the model is one of: a **public anchor** (a published rule or schedule, cited), **fitted** (\`npm run validate\`,
i.e. \`bhis validate --calibrate\`, fits it on the first synthetic city at its earliest cut date and measures it at the later
cut dates and on a second city, docs/methodology-validation.md), **checked by calibration** (kept, and its effect measured by
the same run), or a **convention** (a choice of scale with no better anchor, stated as such and open to calibration).

| Constant | Value | Kind | Source or reason |
|---|---|---|---|
| AEP selection thresholds | ${AEP_CRITERIA.map((c) => `${c.min_units}${c.max_units === null ? '+' : `-${c.max_units}`} units: ${c.open_bc_per_unit}/unit, $${c.emergency_repair_charges}`).join('; ')} | public anchor | HPD AEP selection criteria (Public anchors) |
| UCP unit shares | ${UCP_CRITERIA.map((c) => `${c.min_units}${c.max_units === null ? '+' : `-${c.max_units}`}: ${c.unit_share}`).join('; ')} | public anchor | HPD Underlying Conditions Program (Public anchors) |
| Watchlist level | ${WATCHLIST_CRITERIA.map((c) => `${c.min_units}${c.max_units === null ? '+' : `-${c.max_units}`}: ${c.open_bc_per_unit}/unit`).join('; ')} | public anchor | Public Advocate Worst Landlord Watchlist (Public anchors) |
| Heat season | ${HEAT_SEASON.description} | public anchor | NYC Housing Maintenance Code heat season |
| Grade bands | ${GRADE_BANDS.map((b) => `${b.grade} from ${b.min_score}`).join(', ')} | convention | F at the level of the enforcement programs: the AEP floor sits at D |
| Component weights | ${COMPONENT_MODELS.map((m) => `${m.code} ${COMPONENT_WEIGHTS[m.key]}`).join(', ')} | fitted | ${FITTED_MODEL.fitted_by === null ? 'not fitted yet' : `\`${FITTED_MODEL.fitted_by}\``} (Total score) |
| Size exponent | ${FITTED_MODEL.size.exponent}, from ${FITTED_MODEL.size.from_units} units | fitted (exponent), convention (from ${FITTED_MODEL.size.from_units}: the legal threshold of a multiple dwelling) | the same run (Total score) |
| Knee of the total | ${FITTED_MODEL.knee} (of ${KNEES_TEXT}) | fitted | the same run (Total score) |
| Scale of the total | ${FITTED_MODEL.scale} (of ${CALIBRATION_GRID.scales.join(', ')}) | fitted (the share ${CALIBRATION_GRID.max_floor_share} is a convention: anchors as guards, not as the grading) | the same run (Total score) |
| Half-life factor | ${FITTED_MODEL.half_life_factor} (of ${HALF_LIFE_FACTORS_TEXT}), on every signal's half-life | fitted | the same run (Total score); shorter memories rank the next year's outcomes better |
| Half-life factor of small buildings | ${FITTED_MODEL.small_buildings.half_life_factor} (of ${HALF_LIFE_FACTORS_TEXT}), up to ${FITTED_MODEL.small_buildings.to_units} units | fitted (factor), convention (up to ${FITTED_MODEL.small_buildings.to_units} units: the smallest unit band of the backtest, docs/methodology-validation.md) | the same run (Total score); a few records a year rank better over a longer memory |
| Level of small buildings | ${FITTED_MODEL.small_buildings.level}, on the combined log-health up to ${FITTED_MODEL.small_buildings.to_units} units | fitted | the same run (Total score); places them against larger buildings as their outcomes do |
| Signal half-lives (before the factor), weights, caps and component scales | per signal (Components) | convention | relative to each other: an open violation outlasts a closed one, a confirmed record outweighs a report; their overall memory is the fitted factor |
| Rate floor | ${MIN_RATE_UNITS} units | convention | the legal threshold of a multiple dwelling (3 units) |
| Area propensity bounds and shrinkage | ${AREA_PROPENSITY_BOUNDS.min}-${AREA_PROPENSITY_BOUNDS.max}, 200 condition records | convention | direction from Kontokosta et al. 2017 (Known biases) |
| Known-limit hold | grades ${KNOWN_LIMIT_GRADES.from}-${KNOWN_LIMIT_GRADES.to} | convention | neither end of the scale can be claimed without the records (Known limits) |
| Serious-hazard floor | grade B | public anchor | class C = immediately hazardous (HPD); vacate orders; ECB class 1 (Public anchors) |
| Confidence weights | coverage ${CONFIDENCE_WEIGHTS.coverage}, freshness ${CONFIDENCE_WEIGHTS.freshness}, precision ${CONFIDENCE_WEIGHTS.precision} | checked by calibration | tier stability table (docs/methodology-validation.md) |
| Expected move | ${expectedMoveText()} points | fitted | the run of the total's constants (Confidence) |
| Interval multipliers | ${CONFIDENCE_TIERS.map((t) => `${t.tier} ${FITTED_MODEL.confidence.interval_multipliers[t.tier]}`).join(', ')} | fitted (the 70% coverage is a convention: the middle of 60-80%) | the same run (Confidence) |
| Precision per expected move | ${PRECISION_PER_EXPECTED_MOVE}; expected move at least ${MIN_EXPECTED_MOVE} point | convention | with full coverage and freshness, high from a margin of one expected move; totals move by whole points |
| Cadence allowances | per cadence (Confidence) | convention | the publishers' stated refresh cadences plus their usual lag |`;
}

/** The fitted expected move as a formula, signs folded in. */
function expectedMoveText(): string {
  const { base, spread, uncorroborated } = FITTED_MODEL.confidence.move;
  const term = (x: number, what: string) => `${x < 0 ? '-' : '+'} ${Math.abs(x)} x ${what}`;
  return `${base} ${term(spread, "the confirmed records' spread")} ${term(uncorroborated, '(1 - corroboration)')}`;
}

function versioningSection(): string {
  return `## Versioning

\`${SCORER_ID}\` is stored with every score and history point. It is the identifier the interface contract gives this release, with
the constants fitted for it; once released, any change to a constant in this document changes the scores and takes a new
scorer id. This document is generated from the model's constants and a test fails when it differs from them, so the
published methodology and the running model cannot drift apart.

History stays comparable across versions: every version scores 0-100 on the same grade bands, and each history point keeps
the scorer id it was computed with, so a building's trajectory shows where the version changed. The first run of a new
version records its grade changes with the quiet reason \`scorer-change\`: monitors are not notified of a change of method.

\`${SCORER_ID}\`, the seven-component distress model of the interface contract: known limits (public housing, unreliable unit counts) held between B and D with
the lowest confidence; the serious-hazard floor; a log-scale total with a fitted knee, size exponent, scale and half-life
factor; confidence from coverage, freshness and the grade margin in expected moves, with a fitted interval per tier; scores held while a loaded source is stale; the area
reporting propensity per recorded condition (complaints from under-reporting areas weigh more); the published rules with
their figures (\`published_rules\`, flag \`watchlist-criteria-met\` replacing \`watchlist-level-violations\`).`;
}

export function renderMethodology(): string {
  const sections = [
    titleSection(),
    purposeSection(),
    inputsSection(),
    computationSection(),
    componentsSection(),
    totalScoreSection(),
    publicAnchorsSection(),
    healthScoreSection(),
    peerGroupsSection(),
    dataQualitySection(),
    confidenceSection(),
    flagsSection(),
    explanationsSection(),
    knownLimitsSection(),
    knownBiasesSection(),
    constantsSection(),
    versioningSection(),
  ];
  return `${sections.join('\n\n')}\n`;
}
