/** URLs waiting to be fetched: each URL enters once; the lowest priority leaves first, ties in arrival order. */
export type Frontier = {
  add(url: string, priority: number): void;
  next(): string | undefined;
  /** Marks a URL as seen without queueing it (e.g. the final URL of a redirect). */
  markSeen(url: string): boolean;
  size(): number;
};

export function createFrontier(maxQueued = 5_000): Frontier {
  const seen = new Set<string>();
  const queue: Array<{ url: string; priority: number; order: number }> = [];
  let order = 0;
  return {
    add(url, priority) {
      if (seen.has(url) || queue.length >= maxQueued) return;
      seen.add(url);
      queue.push({ url, priority, order: order++ });
    },
    next() {
      if (queue.length === 0) return undefined;
      let best = 0;
      for (let i = 1; i < queue.length; i++) {
        const a = queue[i];
        const b = queue[best];
        if (a.priority < b.priority || (a.priority === b.priority && a.order < b.order)) best = i;
      }
      return queue.splice(best, 1)[0].url;
    },
    markSeen(url) {
      if (seen.has(url)) return false;
      seen.add(url);
      return true;
    },
    size: () => queue.length,
  };
}
