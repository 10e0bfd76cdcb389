import type { LearnedProfile } from '../../../domain/integrations/contentProfile.ts';
import type { GitHubRepository } from '../../../integrations/github/port.ts';
import {
  configFilesToRead,
  type Files,
  learn,
  MAX_FILE_BYTES,
  sampleFilesToRead,
  type Tree,
} from './learn.ts';
import { loadParsers } from './parsers.ts';

/**
 * Learns a repository's content profile at the head of its base branch: one branch read, one
 * recursive tree read, and a bounded sample of blob reads (config files, at most
 * MAX_SAMPLED_POSTS posts, the authors and tags files). Never a walk of every file; nothing read
 * is run. What it answers is what the `RecordContentProfile` command records.
 */

export type LearningReads = Pick<GitHubRepository, 'getBranchTip' | 'readTree' | 'readBlob'>;

export type LearnedContentProfile = {
  learnedFrom: { commit: string; tree: string };
  learned: LearnedProfile | null;
  failureReason: string | null;
};

/** The branch is gone: nothing to learn from (the caller records nothing). */
export class BaseBranchMissing extends Error {
  constructor(branch: string) {
    super(`The base branch ${branch} does not exist in the repository.`);
    this.name = 'BaseBranchMissing';
  }
}

/** Blob reads in flight at once: a few, so a sample of 20 posts costs a few round trips, not 20. */
const PARALLEL_READS = 4;

/** Decoded as UTF-8; a file that is not text (a NUL byte) is left out like an unreadable one. */
async function readAll(
  repo: LearningReads,
  tree: Tree,
  paths: string[],
  into: Files,
): Promise<void> {
  const byPath = new Map(tree.items.map((item) => [item.path, item]));
  const queue = paths.filter((path) => !into.has(path) && byPath.get(path)?.type === 'blob');
  const read = new Map<string, string>();
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const bytes = await repo.readBlob(byPath.get(path)!.sha, MAX_FILE_BYTES);
      if (bytes && !bytes.includes(0)) read.set(path, bytes.toString('utf8'));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  // In the order asked for, whatever order the answers came in: the learner sees the same files.
  for (const path of paths) if (read.has(path)) into.set(path, read.get(path)!);
}

export async function learnContentProfile(
  repo: LearningReads,
  baseBranch: string,
): Promise<LearnedContentProfile> {
  const tip = await repo.getBranchTip(baseBranch);
  if (!tip) throw new BaseBranchMissing(baseBranch);
  return learnAt(repo, tip);
}

/** Learns from a known commit and tree (a caller that already read the branch). */
export async function learnAt(
  repo: LearningReads,
  tip: { commit: string; tree: string },
): Promise<LearnedContentProfile> {
  const parsers = await loadParsers();
  const listed = await repo.readTree(tip.tree);
  const tree: Tree = { items: listed.items, truncated: listed.truncated };
  const files: Files = new Map();
  await readAll(repo, tree, configFilesToRead(tree), files);
  await readAll(repo, tree, sampleFilesToRead(tree, files, parsers), files);
  const learnedFrom = { commit: tip.commit, tree: tip.tree };
  try {
    return { learnedFrom, ...learn(tree, files, parsers) };
  } catch (error) {
    // The learner is written to answer for any input; should a file still trip it, say so.
    return {
      learnedFrom,
      learned: null,
      failureReason: `The repository could not be read for its conventions (${(error as Error).message}); set them by hand.`,
    };
  }
}
