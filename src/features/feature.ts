import type { ConsumerDefinition } from '../consumers/runner.ts';
import type { Worker } from '../consumers/worker.ts';
import type { Route } from '../http/route.ts';
import type { Platform } from '../platform.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { Projection } from '../readstore/projection.ts';

/** A feature's work beside the API: consumers driven by the log, workers driven by timers. */
export type BackgroundWork = { consumers: ConsumerDefinition[]; workers: Worker<Platform>[] };

/**
 * A feature's face, its folder's index.ts: the endpoints it adds to /api/v1, the read models it
 * owns, the background work it runs on the lease holder, and what it keeps from growing forever.
 * The composition root (app/features.ts) lists the faces; nothing below it imports one.
 */
export type Feature = {
  name: string;
  routes: readonly Route[];
  projections: readonly Projection[];
  background?(platform: Platform): BackgroundWork;
  /** Removes what has aged out; answers how many records of each kind went. */
  prune?(readStore: ReadStore, nowMs: number): Promise<Record<string, number>>;
};
