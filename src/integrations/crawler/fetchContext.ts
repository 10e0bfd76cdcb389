import type { HttpFetcher } from './types.ts';

/** What every crawler request shares: the client, the limits, and the crawl-wide deadline. */
export type FetchContext = {
  http: HttpFetcher;
  timeoutMs: number;
  maxPageBytes: number;
  robotsToken: string;
  signal: AbortSignal;
};

export const MAX_REDIRECTS = 5;

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export const isSuccess = (status: number) => status >= 200 && status < 300;

/** Runs `work` over `items` with at most `limit` in flight, keeping the input order in the output. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
