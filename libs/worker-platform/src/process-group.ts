import cluster from 'node:cluster';

/**
 * A process that exits with an error this soon after it started is failing to start (a service it
 * cannot reach, a bad setting): the group stops with it instead of starting it again forever.
 */
const EARLY_EXIT_MS = 10_000;

function log(message: string): void {
  process.stderr.write(`${JSON.stringify({ level: 'info', time: Date.now(), pid: process.pid, msg: message })}\n`);
}

/**
 * Runs `start` in `count` processes of this program (node:cluster), each a whole worker with its own
 * queue consumer and connections, as separate containers would be: the way one machine's cores share
 * a run's parts. The first process only supervises: it starts another process in place of one that
 * dies (its jobs are retried once their locks expire) and passes SIGTERM and SIGINT on. With one
 * process, `start` runs in this one.
 */
export function inProcesses(count: number, start: () => Promise<void>): void {
  if (count <= 1 || !cluster.isPrimary) {
    void start();
    return;
  }
  let stopping = false;
  const startedAt = new Map<number, number>();
  const fork = () => {
    const child = cluster.fork();
    startedAt.set(child.id, Date.now());
  };
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of Object.values(cluster.workers ?? {})) child?.process.kill(signal);
    if (startedAt.size === 0) process.exit();
  };
  cluster.on('exit', (child, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(child.id) ?? 0);
    startedAt.delete(child.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit();
      return;
    }
    if (code !== null && code !== 0 && ranMs < EARLY_EXIT_MS) {
      log(`process ${child.process.pid} exited with code ${code} ${ranMs} ms after it started: stopping the ${count} processes`);
      process.exitCode = code;
      stopAll('SIGTERM');
      return;
    }
    log(`process ${child.process.pid} exited (${signal ?? `code ${code}`}): starting another`);
    fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stopAll(signal));
  log(`starting ${count} processes`);
  for (let i = 0; i < count; i++) fork();
}
