import { useCallback, useEffect, useRef, useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { asRequestFailed } from '../ui/useResource.ts';

export type Page<T> = { items: T[]; nextCursor: string | null };
export type Column<T> = { items: T[]; nextCursor: string | null; loading: boolean };
export type LoadPage<S, T> = (status: S, limit: number, cursor?: string) => Promise<Page<T>>;

/** The API's largest page (`?limit` max). */
const MAX_LIMIT = 200;

/**
 * One list per status, each paged through the API's cursor: the newest `pageSize` when the board
 * opens, "more" appends the next page, and `reload` (after an action or a live change) reads each
 * column again as far as it was shown, so a column never shrinks back under the person's eyes.
 */
export function usePagedColumns<S extends string, T extends { id: string }>(
  statuses: readonly S[],
  load: LoadPage<S, T>,
  pageSize: number,
  key: string,
) {
  const [columns, setColumns] = useState<Partial<Record<S, Column<T>>>>({});
  const [error, setError] = useState<RequestFailed | null>(null);
  const shown = useRef<Partial<Record<S, number>>>({});
  const latest = useRef(load);
  latest.current = load;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const run = ++generation.current;
    try {
      const pages = await Promise.all(
        statuses.map((status) =>
          latest.current(
            status,
            Math.min(MAX_LIMIT, Math.max(pageSize, shown.current[status] ?? 0)),
          ),
        ),
      );
      if (run !== generation.current) return;
      const next: Partial<Record<S, Column<T>>> = {};
      statuses.forEach((status, i) => {
        next[status] = { items: pages[i].items, nextCursor: pages[i].nextCursor, loading: false };
        shown.current[status] = pages[i].items.length;
      });
      setColumns(next);
      setError(null);
    } catch (failure) {
      if (run === generation.current) setError(asRequestFailed(failure));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, pageSize]);

  const more = useCallback(
    async (status: S) => {
      const column = columns[status];
      if (!column?.nextCursor) return;
      setColumns((current) => ({ ...current, [status]: { ...column, loading: true } }));
      try {
        const page = await latest.current(status, pageSize, column.nextCursor);
        setColumns((current) => {
          const before = current[status]?.items ?? [];
          const known = new Set(before.map((item) => item.id));
          const items = [...before, ...page.items.filter((item) => !known.has(item.id))];
          shown.current[status] = items.length;
          return { ...current, [status]: { items, nextCursor: page.nextCursor, loading: false } };
        });
      } catch (failure) {
        setError(asRequestFailed(failure));
        setColumns((current) => ({ ...current, [status]: { ...column, loading: false } }));
      }
    },
    [columns, pageSize],
  );

  useEffect(() => {
    shown.current = {};
    setColumns({});
    void reload();
  }, [reload]);

  return { columns, error, reload, more, loaded: Object.keys(columns).length > 0 };
}
