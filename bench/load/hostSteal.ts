import { readFileSync } from 'node:fs';

type CpuTimes = { steal: number; total: number };

/**
 * The machine's CPU time so far from /proc/stat (Linux), to tell how much of a measurement the
 * hypervisor gave to other guests ("steal"): on a shared VM a run at 40% steal is not a figure of
 * the code. Null where /proc/stat does not exist.
 */
export function cpuTimes(): CpuTimes | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user)
    return {
      steal: fields[7] ?? 0,
      total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0),
    };
  } catch {
    return null;
  }
}

/** The share of the machine's CPU time stolen between two readings, in percent (null without /proc/stat). */
export function stealPercent(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return Math.round((100 * (after.steal - before.steal)) / (after.total - before.total));
}
