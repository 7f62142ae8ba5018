import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { createApiKey, migrate } from '@bhis/db';
import { CliError, config, repoRoot, withDataSource } from '../context';

/** One step of the demo; later steps (synthetic city, ingest, scoring) are appended as they exist. */
export interface DemoStep {
  title: string;
  run(): Promise<void>;
}

function startApp(name: 'api' | 'ingest' | 'scoring', logDir: string): ChildProcess {
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const root = repoRoot();
  const child = spawn(process.execPath, [path.join(root, 'tools/build/run.js'), name], {
    cwd: root,
    env: process.env,
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

export function demoCommand(extraSteps: () => DemoStep[] = () => []): Command {
  return new Command('demo')
    .description('Migrate, load the demo data, start the API and both workers, and print a demo key')
    .option('--no-serve', 'prepare everything but do not keep the services running')
    .action(async (options: { serve: boolean }) => {
      const cfg = config();
      const logDir = path.resolve(cfg.DATA_DIR, 'logs');
      mkdirSync(logDir, { recursive: true });
      const say = (line: string) => process.stdout.write(`${line}\n`);

      say('1. Migrating the database...');
      const report = await migrate(cfg.DATABASE_URL);
      say(`   ${report.applied.length} migration(s) applied${report.createdDatabase ? ' (database created)' : ''}.`);

      const children: ChildProcess[] = [];
      const stopAll = () => children.forEach((c) => c.kill('SIGTERM'));
      process.on('SIGINT', () => {
        stopAll();
        process.exit(0);
      });
      say('2. Starting the ingest and scoring workers and the API (logs in data/logs/)...');
      children.push(startApp('ingest', logDir), startApp('scoring', logDir), startApp('api', logDir));
      const base = `http://127.0.0.1:${cfg.PORT}`;
      await waitForHealth(`${base}/api/v1/health`, 60_000);

      let n = 3;
      for (const step of extraSteps()) {
        say(`${n++}. ${step.title}`);
        await step.run();
      }

      const demo = await withDataSource((ds) => createApiKey(ds, { name: 'demo', kind: 'demo' }));
      say(`\nThe API is up at ${base}/api/v1 (docs: ${base}/docs).`);
      say(`Demo key (read-only, ${cfg.RATE_LIMIT_DEMO_PER_MIN} requests/min): ${demo.key}`);
      say(`\n  curl -s -H "Authorization: Bearer ${demo.key}" ${base}/api/v1 | head -c 600\n`);
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
