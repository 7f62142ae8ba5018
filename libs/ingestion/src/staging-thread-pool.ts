import path from 'node:path';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { FromStagingThread, StagingJob, StagingThreadData, ToStagingThread } from './staging-thread-messages';
// the thread's script, named so that a build of any program that stages files compiles it (SCRIPT below)
import type * as _StagingThreadScript from './staging-thread-worker';

/**
 * The staging thread's script, beside this module and in its form: the build's JavaScript, or the
 * TypeScript source where the sources run as they are (Jest), started through the workspace's
 * TypeScript loader (tools/jest/register-ts.js, the settings Jest uses).
 */
const SCRIPT = path.join(__dirname, `staging-thread-worker${path.extname(__filename)}`);
const TS_LOADER = path.resolve(__dirname, '../../../tools/jest/register-ts.js');

/** Listens to a stopped thread's last 'error' event, which says nothing the load does not know already. */
function ignoreError(): void {
  return undefined;
}

/** A staging thread left idle this long ends (its heap is given back). */
const IDLE_MS = 60_000;

/**
 * A staging thread, its V8 old generation capped at `heapMb` (INGEST_THREAD_HEAP_MB): without a cap
 * each thread's heap may grow to the process's default, and a worker runs three of them at once
 * (docs/scaling.md, "The ingest worker's memory").
 */
function startThread(heapMb: number | undefined): Worker {
  const limits = heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {};
  if (SCRIPT.endsWith('.ts')) return new Worker(`require(${JSON.stringify(TS_LOADER)}); require(${JSON.stringify(SCRIPT)});`, { eval: true, ...limits });
  return new Worker(SCRIPT, limits);
}

/** One file's conversation with the staging thread that stages it. */
export interface StagingLease {
  send(message: ToStagingThread): void;
  /** The thread staged the file, or caught its failure and said so: it waits for the next one. */
  release(): void;
  /** The load failed while the thread was still at it (or the thread itself failed): it is stopped, never reused. */
  destroy(): void;
}

export interface StagingLeaseEvents {
  message(message: FromStagingThread): void;
  /** The thread failed or stopped before the file was staged. */
  failed(error: Error): void;
}

interface IdleThread {
  worker: Worker;
  timer: NodeJS.Timeout;
  /** Takes the thread off the idle list should it fail or exit while idle. */
  onExit: () => void;
}

/**
 * Staging threads kept for the next file: a thread takes ~0.7 s of CPU to start (loading the
 * modules, more in TypeScript), paid once per thread instead of once per file. An idle thread does
 * not keep the process alive, and ends after IDLE_MS.
 */
class StagingThreadPool {
  private readonly idle = new Map<number, IdleThread[]>();
  private startedCount = 0;

  /** Threads this process has started. */
  get started(): number {
    return this.startedCount;
  }

  /** A thread for one file, started if none is idle. */
  lease(data: StagingThreadData, heapMb: number | undefined, events: StagingLeaseEvents): StagingLease {
    const worker = this.take(heapMb ?? 0) ?? this.start(heapMb);
    const channel = new MessageChannel();
    let done = false;
    const stopped = (error: Error) => {
      if (!done) events.failed(error);
    };
    const exited = (code: number) => stopped(new Error(`a staging thread stopped (exit code ${code}) before the file was staged`));
    worker.on('error', stopped);
    worker.on('exit', exited);
    channel.port1.on('message', (message: FromStagingThread) => {
      if (!done) events.message(message);
    });
    const end = () => {
      done = true;
      worker.off('error', stopped);
      worker.off('exit', exited);
      channel.port1.close();
    };
    const job: StagingJob = { data, port: channel.port2 };
    worker.postMessage(job, [channel.port2 as MessagePort]);
    return {
      send: (message) => {
        if (!done) channel.port1.postMessage(message);
      },
      release: () => {
        if (done) return;
        end();
        this.giveBack(worker, heapMb ?? 0);
      },
      destroy: () => {
        if (done) return;
        end();
        // the thread may still fail on its own (its heap cap reached while it is being stopped): an
        // 'error' event without a listener would end the process
        worker.on('error', ignoreError);
        void worker.terminate();
      },
    };
  }

  private start(heapMb: number | undefined): Worker {
    this.startedCount += 1;
    return startThread(heapMb);
  }

  private take(heapMb: number): Worker | undefined {
    const thread = this.idle.get(heapMb)?.pop();
    if (!thread) return undefined;
    clearTimeout(thread.timer);
    thread.worker.off('exit', thread.onExit);
    thread.worker.off('error', thread.onExit);
    thread.worker.ref();
    return thread.worker;
  }

  private giveBack(worker: Worker, heapMb: number): void {
    const list = this.idle.get(heapMb) ?? [];
    this.idle.set(heapMb, list);
    const onExit = () => {
      const at = list.findIndex((t) => t.worker === worker);
      if (at >= 0) list.splice(at, 1);
    };
    const timer = setTimeout(() => void worker.terminate(), IDLE_MS).unref();
    worker.unref();
    worker.on('exit', onExit);
    worker.on('error', onExit);
    list.push({ worker, timer, onExit });
  }
}

/** The process's staging threads. */
export const stagingThreads = new StagingThreadPool();
