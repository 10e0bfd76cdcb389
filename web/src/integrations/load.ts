import { RequestFailed } from '../api/appClient.ts';
import { asRequestFailed } from '../ui/useResource.ts';

/** A connection that may not exist: its 404 is "not set up", any other failure is thrown. */
export async function orNone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (failure) {
    if (failure instanceof RequestFailed && failure.error.status === 404) return null;
    throw failure;
  }
}

/** Runs a change; its failure is returned (to show on the form), never thrown. */
export async function attempt(change: () => Promise<void>): Promise<RequestFailed | null> {
  try {
    await change();
    return null;
  } catch (failure) {
    return asRequestFailed(failure);
  }
}
