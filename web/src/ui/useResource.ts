import { useCallback, useEffect, useState } from 'react';
import { RequestFailed } from '../api/appClient.ts';

export type Resource<T> = {
  data: T | undefined;
  error: RequestFailed | null;
  loading: boolean;
  reload(): Promise<void>;
};

/** Loads `load()` when the page opens and whenever `key` changes; `reload` after an action or a live update. */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<RequestFailed | null>(null);
  const [loading, setLoading] = useState(true);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, [key]);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await run());
      setError(null);
    } catch (failure) {
      setError(asRequestFailed(failure));
    } finally {
      setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    setData(undefined);
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}

/** Anything a request can throw, as the API's `{error:{code,message,details}}`. */
export function asRequestFailed(failure: unknown): RequestFailed {
  if (failure instanceof RequestFailed) return failure;
  return new RequestFailed({
    status: 0,
    code: 'unreachable',
    message: 'Could not reach Inkstream. Check the connection and try again.',
  });
}
