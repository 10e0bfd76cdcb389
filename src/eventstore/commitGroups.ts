export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type CommitGroups<Request, Outcome> = {
  /** Queues the request for this turn's group; settles once the group is committed. */
  submit(request: Request): Promise<Outcome>;
  /** Commits what is queued now (before the store closes). */
  flush(): void;
};

/**
 * Group commit: the requests submitted while the process works through one callback and the
 * promise continuations it sets off are handed to `commit` together once those have run out (a
 * process.nextTick queued from a continuation runs after the whole promise queue drains). Under
 * load the API's requests resume together from one shared read of the log's head
 * (http/consistency.ts), so their commands share one transaction and one write of each page they
 * touch. A lone append waits for no other turn of the event loop. `commit` settles each request
 * on its own: one request's conflict does not fail the others.
 */
export function createCommitGroups<Request, Outcome>(
  commit: (requests: Request[]) => Settled<Outcome>[],
): CommitGroups<Request, Outcome> {
  let queued: { request: Request; resolve(value: Outcome): void; reject(error: unknown): void }[] =
    [];

  function flush(): void {
    const group = queued;
    queued = [];
    if (group.length === 0) return;
    let settled: Settled<Outcome>[];
    try {
      settled = commit(group.map((entry) => entry.request));
    } catch (error) {
      settled = group.map(() => ({ ok: false, error }));
    }
    group.forEach((entry, index) => {
      const outcome = settled[index];
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  }

  return {
    submit(request) {
      return new Promise<Outcome>((resolve, reject) => {
        queued.push({ request, resolve, reject });
        if (queued.length === 1) process.nextTick(flush);
      });
    },
    flush,
  };
}
