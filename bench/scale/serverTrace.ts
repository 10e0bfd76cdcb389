/**
 * What ran in the server process while it answered: each request's arrival and finish, each
 * garbage collection, and a CPU profile (node:inspector) sampled every SAMPLE_US. Every time is
 * in milliseconds of the machine's monotonic clock (process.hrtime), which the bench's own
 * process reads too, so a request's time at the client lines up with what the server did then.
 * Used by bench/scale/tails.ts through serverProcess.ts.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const SAMPLE_US = 250;

export type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
export type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};
export type ServerTrace = {
  requests: { url: string; startMs: number; endMs: number }[];
  gcs: { startMs: number; ms: number; kind: number }[];
  /** Null when traced without the profiler. */
  profile: CpuProfile | null;
};

export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Resolves once the profiler runs; `profile: false` records the requests and GCs only (what the scale bench asks, at no profiling cost). */
export async function startTracing(
  server: Server,
  options: { profile: boolean },
): Promise<{ stop(): Promise<ServerTrace> }> {
  // performance.now() counts from this process's start on the same monotonic clock.
  const perfToMonotonic = monotonicMs() - performance.now();
  const requests: ServerTrace['requests'] = [];
  const gcs: ServerTrace['gcs'] = [];
  // Ends when the handler ends the response, not at 'finish', which a busy event loop may emit
  // after the client already has the bytes.
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const startMs = monotonicMs();
    const end = response.end;
    response.end = function (this: ServerResponse, ...args: unknown[]) {
      requests.push({ url: request.url ?? '', startMs, endMs: monotonicMs() });
      return (end as (...rest: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  };
  server.prependListener('request', onRequest);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcs.push({
        startMs: entry.startTime + perfToMonotonic,
        ms: entry.duration,
        kind: (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0,
      });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const session = options.profile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLE_US });
    await session.post('Profiler.start');
  }
  return {
    async stop() {
      const profile = session
        ? ((await session.post('Profiler.stop')).profile as CpuProfile)
        : null;
      session?.disconnect();
      observer.disconnect();
      server.off('request', onRequest);
      return { requests, gcs, profile };
    },
  };
}
