// Types of package-manifest.js (plain JavaScript so that the build runs without a compile step).
export interface Manifest {
  name: string;
  version: string;
  license?: string;
  description?: string;
  engines?: Record<string, string>;
  main?: string;
  dependencies: Record<string, string>;
}
export interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}
export interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}
export function packageName(specifier: string): string | null;
export function requiredPackages(entry: string): string[];
export function appDependencies(rootManifest: { dependencies?: Record<string, string> }, lock: Lock, required: string[]): Record<string, string>;
export function pruneLock(lock: Lock, manifest: Manifest): Lock & { name: string; version: string; requires: boolean };
export function appManifest(rootManifest: Manifest, app: { name: string; main: string; dependencies: Record<string, string> }): Manifest;
