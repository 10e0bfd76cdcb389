export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs a side effect (a crawl, a model call) and keeps its failure as a value, so the failure is
 * recorded as an event, while errors of the recording itself (the event store) still throw and
 * make the consumer retry from its checkpoint. A failure while the server stops is not an
 * outcome: it throws, and the event is handled again after the restart.
 */
export async function attempt<T>(
  work: () => Promise<T>,
  stopping?: AbortSignal,
): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (stopping?.aborted) throw error;
    return { ok: false, error };
  }
}
