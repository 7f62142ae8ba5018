/** Data-quality classes, from the most to the least evidence. */
export const DATA_QUALITY_CLASSES = [
  { key: 'rich', rule: 'records from 5 or more evidence families and 50 or more events' },
  { key: 'standard', rule: 'anything between sparse and rich' },
  { key: 'sparse', rule: 'records from 1-2 evidence families, or fewer than 5 events' },
  { key: 'minimal', rule: 'no event at all: building facts only' },
] as const;
export type DataQuality = (typeof DATA_QUALITY_CLASSES)[number]['key'];

export const RICH_MIN_FAMILIES = 5;
export const RICH_MIN_EVENTS = 50;
export const SPARSE_MAX_FAMILIES = 2;
export const SPARSE_MAX_EVENTS = 4;

export function dataQualityOf(activeFamilies: number, totalEvents: number): DataQuality {
  if (totalEvents === 0) return 'minimal';
  if (activeFamilies <= SPARSE_MAX_FAMILIES || totalEvents <= SPARSE_MAX_EVENTS) return 'sparse';
  if (activeFamilies >= RICH_MIN_FAMILIES && totalEvents >= RICH_MIN_EVENTS) return 'rich';
  return 'standard';
}
