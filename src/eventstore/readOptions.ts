import type { ReadAllOptions } from './port.ts';

export const READ_ALL_DEFAULT_MAX_COUNT = 1000;

export type ReadAllRequest = {
  after: bigint;
  maxCount: number;
  /** undefined: every category; an empty list matches nothing. Duplicates removed. */
  categories: readonly string[] | undefined;
};

export function readAllRequest(options: ReadAllOptions = {}): ReadAllRequest {
  const after = options.after ?? -1n;
  if (after < -1n) throw new RangeError(`readAll after must be >= -1, got ${after}`);
  return {
    after,
    maxCount: checkMaxCount(options.maxCount ?? READ_ALL_DEFAULT_MAX_COUNT),
    categories: options.categories && [...new Set(options.categories)],
  };
}

export type ReadStreamRequest = { fromRevision: bigint; maxCount: number | undefined };

export function readStreamRequest(
  options: { fromRevision?: bigint; maxCount?: number } = {},
): ReadStreamRequest {
  const fromRevision = options.fromRevision ?? 0n;
  if (fromRevision < 0n) throw new RangeError(`fromRevision must be >= 0, got ${fromRevision}`);
  return {
    fromRevision,
    maxCount: options.maxCount === undefined ? undefined : checkMaxCount(options.maxCount),
  };
}

function checkMaxCount(maxCount: number): number {
  if (!Number.isSafeInteger(maxCount) || maxCount < 1)
    throw new RangeError(`maxCount must be a positive integer, got ${maxCount}`);
  return maxCount;
}
