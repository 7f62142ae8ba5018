import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { createApiKey, migrate, pgPool } from '@bhis/db';
import { hashApiKey } from '@bhis/domain';
import { CliError, config, repoRoot, withDataSource } from '../context';
import { DEMO_CITY, type DemoContext, type DemoStep, interestingBuildings } from './demo-steps';
import { mirrorSettings, SocrataMirror } from '@bhis/synth';
import { API_BASE_PATH } from '@bhis/envelope';


/**
 * The demo key: reused from data/demo-key while it is valid, otherwise created (and written there,
 * readable by this user only). The server keeps only its hash, as for every key.
 */
async function demoKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'demo-key');
  const saved = existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
  return withDataSource(async (ds) => {
    if (saved) {
      const valid = await ds.query(`SELECT 1 FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`, [hashApiKey(saved)]);
      if (valid.length) return saved;
    }
    const created = await createApiKey(ds, { name: 'demo', kind: 'demo' });
    writeFileSync(file, `${created.key}\n`, { mode: 0o600 });
    return created.key;
  });
}

function startApp(name: 'api' | 'ingest' | 'scoring', logDir: string, env: NodeJS.ProcessEnv): ChildProcess {
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const root = repoRoot();
  const child = spawn(process.execPath, [path.join(root, 'tools/build/run.js'), name], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new CliError(`The API did not become healthy at ${url} within ${timeoutMs / 1000} s (see data/logs/api.log).`);
}

function cityBuildings(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 50 || n > 50_000) throw new CliError('--buildings must be a whole number from 50 to 50,000');
  return n;
}

/** What the demo prints at its end. */
async function printEnd(say: (line: string) => void, base: string, key: string): Promise<string | undefined> {
  const buildings = await withDataSource((ds) => interestingBuildings(pgPool(ds)));
  if (buildings.length) {
    say('\nBuildings to look at:');
    for (const b of buildings) say(`  ${b.bbl}  ${b.grade} (${b.total_score})  ${b.address}  - ${b.why}`);
  }
  say(`\nThe API is up at ${base}${API_BASE_PATH} (docs: ${base}/docs).`);
  say(`Demo key (read-only, ${config().RATE_LIMIT_DEMO_PER_MIN} requests/min): ${key}`);
  const example = buildings[0]?.bbl;
  say(`\n  curl -s -H "Authorization: Bearer ${key}" ${base}${API_BASE_PATH}/buildings/${example ?? '1000010001'}\n`);
  return example;
}

export function demoCommand(extraSteps: (context: DemoContext) => DemoStep[] = () => []): Command {
  return new Command('demo')
    .description('Migrate, load the demo data, refresh it by download from a local Socrata stand-in, start the API and both workers, and print a demo key')
    .option('--no-serve', 'prepare everything but do not keep the services running')
    .option('--buildings <n>', `buildings of the synthetic city (default ${DEMO_CITY.buildings})`, cityBuildings, DEMO_CITY.buildings)
    .action(async (options: { serve: boolean; buildings: number }) => {
      const cfg = config();
      const logDir = path.resolve(cfg.DATA_DIR, 'logs');
      mkdirSync(logDir, { recursive: true });
      const say = (line: string) => process.stdout.write(`${line}\n`);

      say('1. Migrating the database...');
      const report = await migrate(cfg.DATABASE_URL);
      say(`   ${report.applied.length} migration(s) applied${report.createdDatabase ? ' (database created)' : ''}.`);

      const children: ChildProcess[] = [];
      // the ingest worker downloads from it: the demo's refresh, and any download asked for while it runs
      const mirror = new SocrataMirror(path.resolve(cfg.DATA_DIR, 'demo-mirror'));
      await mirror.start();
      const stopAll = () => {
        children.forEach((c) => c.kill('SIGTERM'));
        void mirror.stop();
      };
      // Ctrl-C (SIGINT) or a process manager (SIGTERM): the services stop with the demo
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.on(signal, () => {
          stopAll();
          process.exit(0);
        });
      }
      const runSteps = async () => {
        const key = await demoKey(path.resolve(cfg.DATA_DIR));
        const env = { ...process.env };
        say(`2. Starting the ingest and scoring workers and the API (logs in ${logDir}; the ingest worker downloads from the local Socrata stand-in at ${mirror.url})...`);
        children.push(startApp('ingest', logDir, { ...env, ...mirrorSettings(mirror) }), startApp('scoring', logDir, env), startApp('api', logDir, env));
        const base = `http://127.0.0.1:${cfg.PORT}`;
        await waitForHealth(`${base}${API_BASE_PATH}/health`, 60_000);
        let n = 3;
        for (const step of extraSteps({ mirror, buildings: options.buildings })) {
          say(`${n++}. ${step.title}`);
          await step.run();
        }
        return { base, example: await printEnd(say, base, key) };
      };
      // a step that fails stops the services and the stand-in with it: nothing is left holding the demo open
      const { base, example } = await runSteps().catch((error: unknown) => {
        stopAll();
        throw error;
      });
      if (example) say(`In a browser: ${base}/buildings/${example}`);
      if (!options.serve) {
        stopAll();
        return;
      }
      say('Press Ctrl-C to stop the API and the workers.');
      await new Promise<void>((resolve) => children.forEach((c) => c.on('exit', () => resolve())));
      stopAll();
      throw new CliError('A service stopped unexpectedly; see data/logs/.');
    });
}
