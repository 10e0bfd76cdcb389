/** Where the build watcher is with one article's head commit (the `BUILD_WATCH` collection). */
export type BuildWatchDoc = {
  id: string;
  headSha: string;
  sinceMs: number;
  lastReadMs: number | null;
  reads: number;
  /** A webhook said the commit's build changed: read it at the next pass, whatever the backoff. */
  nudged: boolean;
};
