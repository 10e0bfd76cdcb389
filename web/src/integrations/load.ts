import { RequestFailed } from '../api/appClient.ts';

/** A connection that may not exist: its 404 is "not set up", any other failure is thrown. */
export async function orNone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (failure) {
    if (failure instanceof RequestFailed && failure.error.status === 404) return null;
    throw failure;
  }
}
