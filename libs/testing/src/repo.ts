import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The built entry point of each runnable project, relative to the repository root. */
export const BUILT_ENTRY = {
  api: 'dist/apps/api/apps/api/src/main.js',
  ingest: 'dist/apps/ingest/apps/ingest/src/main.js',
  scoring: 'dist/apps/scoring/apps/scoring/src/main.js',
  cli: 'dist/tools/cli/tools/cli/src/main.js',
} as const;

export type BuiltProject = keyof typeof BUILT_ENTRY;

/** The nearest folder above this file whose package.json is named "bhis". */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'bhis') return dir;
  }
  throw new Error('cannot find the repository root (package.json named "bhis")');
}

/** Builds the given projects with the repository's build script (tsc + alias rewrite). */
export function buildProjects(projects: readonly BuiltProject[]): void {
  const root = repoRoot();
  for (const project of projects) {
    execFileSync(process.execPath, [path.join(root, 'tools/build/build-app.js'), project], { cwd: root, stdio: 'inherit' });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** Something that rejects when a process it stands for dies (see NodeProcess.died). */
export interface Watched {
  died: Promise<never>;
}

/**
 * Runs the built operator CLI with extra environment; never throws on a non-zero exit. When one of
 * `watch` (the workers the CLI waits for) dies, the CLI is stopped and the call throws.
 */
export function runCli(args: readonly string[], env: Record<string, string>, watch: readonly Watched[] = []): Promise<CliResult> {
  const ROOT_DIR = repoRoot();
  const started = Date.now();
  const abort = new AbortController();
  const run = new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT_DIR, BUILT_ENTRY.cli), ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: abort.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr, elapsedMs: Date.now() - started }));
  });
  run.catch(() => undefined);
  if (watch.length === 0) return run;
  return Promise.race([run, ...watch.map((w) => w.died)]).catch((error: unknown) => {
    abort.abort();
    throw error;
  });
}

/** Runs the CLI (with `--json` among the arguments) and parses its output, with the time it took. */
export async function runCliJsonTimed<T>(args: readonly string[], env: Record<string, string>, watch: readonly Watched[] = []): Promise<{ value: T; elapsedMs: number }> {
  const result = await runCli(args, env, watch);
  if (result.code !== 0) throw new Error(`bhis ${args.join(' ')} exited with ${result.code}:\n${result.stderr.slice(-3000)}`);
  return { value: JSON.parse(result.stdout) as T, elapsedMs: result.elapsedMs };
}

/** Runs the CLI (with `--json` among the arguments) and parses its output. */
export async function runCliJson<T>(args: readonly string[], env: Record<string, string>, watch: readonly Watched[] = []): Promise<T> {
  return (await runCliJsonTimed<T>(args, env, watch)).value;
}
