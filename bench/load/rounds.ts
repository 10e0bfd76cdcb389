import type { WrkResult } from './wrk.ts';

/** hostStealPercent: the share of the machine's CPU time the hypervisor gave elsewhere during the run. */
export type Run = WrkResult & {
  serverCpuMicrosPerRequest: number;
  hostStealPercent: number | null;
};

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The median of each figure over the rounds (on a shared machine one round can land on a busy
 * moment), the errors summed, and every round's own figures.
 */
export function acrossRounds(runs: Run[]) {
  const of = (figure: (run: Run) => number) => median(runs.map(figure));
  const sum = (figure: (run: Run) => number) => runs.reduce((total, run) => total + figure(run), 0);
  const statuses: Record<string, number> = {};
  for (const run of runs)
    for (const [status, count] of Object.entries(run.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  return {
    requestsPerSecond: of((run) => run.requestsPerSecond),
    latencyMs: {
      p50: of((run) => run.latencyMs.p50),
      p90: of((run) => run.latencyMs.p90),
      p99: of((run) => run.latencyMs.p99),
      max: of((run) => run.latencyMs.max),
    },
    serverCpuMicrosPerRequest: of((run) => run.serverCpuMicrosPerRequest),
    hostStealPercent: runs.some((run) => run.hostStealPercent === null)
      ? null
      : of((run) => run.hostStealPercent!),
    requests: sum((run) => run.requests),
    errors: {
      connect: sum((run) => run.errors.connect),
      read: sum((run) => run.errors.read),
      write: sum((run) => run.errors.write),
      status: sum((run) => run.errors.status),
      timeout: sum((run) => run.errors.timeout),
    },
    ...(Object.keys(statuses).length ? { statuses } : {}),
    rounds: runs.map((run) => ({
      requestsPerSecond: run.requestsPerSecond,
      latencyMs: run.latencyMs,
      serverCpuMicrosPerRequest: run.serverCpuMicrosPerRequest,
      hostStealPercent: run.hostStealPercent,
    })),
  };
}
