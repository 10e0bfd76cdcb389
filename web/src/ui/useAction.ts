import { useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { asRequestFailed } from './useResource.ts';

export type Action = {
  busy: boolean;
  error: RequestFailed | null;
  run(action: () => Promise<unknown>): Promise<boolean>;
};

/** A form's request: busy while it runs, and the API's error (for the form's fields) when it fails; `run` says whether it succeeded. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<RequestFailed | null>(null);
  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(asRequestFailed(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}
