// pure-rand 8 publishes its entry points through package.json "exports" only; with the workspace's
// `moduleResolution: node` TypeScript does not read that map, so the two entry points used here are declared.
declare module 'pure-rand/generator/xoroshiro128plus' {
  export interface RandomGenerator {
    clone(): RandomGenerator;
    /** A 32-bit signed integer; advances the generator in place. */
    next(): number;
    getState(): readonly number[];
  }
  export interface JumpableRandomGenerator extends RandomGenerator {
    jump(): void;
  }
  export function xoroshiro128plus(seed: number): JumpableRandomGenerator;
  export function xoroshiro128plusFromState(state: readonly number[]): JumpableRandomGenerator;
}
