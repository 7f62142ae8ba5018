import { SingleBar } from 'cli-progress';

/** A progress bar on a terminal (rows and MB/s); silent when output is not a terminal or is JSON. */
export class ProgressDisplay {
  private bar: SingleBar | undefined;
  private started = Date.now();

  constructor(
    private readonly enabled: boolean,
    private readonly label: string,
  ) {}

  update(p: { done: number; total: number | null; unit: string; bytes?: number; phase?: string }): void {
    if (!this.enabled) return;
    const phase = p.phase ?? '';
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const rate = p.bytes !== undefined ? `${(p.bytes / 1e6 / seconds).toFixed(1)} MB/s` : `${Math.round(p.done / seconds)}/s`;
    if (!this.bar) {
      this.bar = new SingleBar({
        format: `${this.label} [{bar}] {percentage}% | {value} ${p.unit} | {rate} | {phase}`,
        hideCursor: true,
        stream: process.stderr,
      });
      this.bar.start(p.total ?? p.done, p.done, { rate, phase });
    }
    this.bar.setTotal(Math.max(p.total ?? p.done, p.done));
    this.bar.update(p.done, { rate, phase });
  }

  stop(): void {
    this.bar?.stop();
  }
}

export const isInteractive = (json: boolean | undefined): boolean => Boolean(process.stderr.isTTY) && !json;
