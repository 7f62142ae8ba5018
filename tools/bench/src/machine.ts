import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  postgres: string;
  redis: string;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}

export function describeMachine(versions: { postgres: string; redis: string }): MachineInfo {
  return {
    cpuModel: cpuModel(),
    cpus: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    ...versions,
  };
}
