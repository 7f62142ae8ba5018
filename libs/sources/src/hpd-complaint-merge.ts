import { NormalizedEvent, SEVERITIES } from '@bhis/domain';

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * HPD complaints arrive one row per problem, each an event keyed by the complaint id. Two events of
 * the same complaint merge into one: problems and 311 keys are concatenated (without repeats), the
 * most severe problem gives severity and category, the earliest received date and the latest
 * closing date are kept.
 */
export function mergeHpdComplaintEvents(a: NormalizedEvent, b: NormalizedEvent): NormalizedEvent {
  if (a.source_record_id !== b.source_record_id || a.event_type !== b.event_type) {
    throw new Error(`cannot merge events of different records (${a.source_record_id}, ${b.source_record_id})`);
  }
  const worst = SEVERITIES.indexOf(b.severity) < SEVERITIES.indexOf(a.severity) ? b : a;
  const problems = [...list(a.attributes['problems']), ...list(b.attributes['problems'])];
  const seenProblems = new Set<string>();
  const uniqueProblems = problems.filter((problem) => {
    const key = JSON.stringify(problem);
    if (seenProblems.has(key)) return false;
    seenProblems.add(key);
    return true;
  });
  const keys311 = [...new Set([...list(a.attributes['unique_keys_311']), ...list(b.attributes['unique_keys_311'])])];
  const dates = [a.occurred_on, b.occurred_on].filter((date): date is string => date !== null).sort();
  const closings = [a.closed_on, b.closed_on].filter((date): date is string => date !== null).sort();
  return {
    ...a,
    ...{ category: worst.category, severity: worst.severity, description: worst.description },
    occurred_on: dates[0] ?? null,
    closed_on: closings[closings.length - 1] ?? null,
    attributes: { ...a.attributes, ...b.attributes, problems: uniqueProblems, unique_keys_311: keys311 },
  };
}
