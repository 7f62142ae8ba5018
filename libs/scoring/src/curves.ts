/** Saturating map of a non-negative index to 0-100: the score reaches 63.2 at index = scale. */
export function saturate(index: number, scale: number): number {
  if (!(index > 0)) return 0;
  return 100 * (1 - Math.exp(-index / scale));
}

export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
