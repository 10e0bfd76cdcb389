import { useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { asRequestFailed } from './useResource.ts';

export type Action = { busy: boolean; error: RequestFailed | null; done: boolean; run(action: () => Promise<unknown>): Promise<void> };

/** A form's request: busy while it runs, the API's error (for its fields) when it fails, `done` after it succeeded. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<RequestFailed | null>(null);
  const [done, setDone] = useState(false);
  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await action();
      setDone(true);
    } catch (failure) {
      setError(asRequestFailed(failure));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, done, run };
}
