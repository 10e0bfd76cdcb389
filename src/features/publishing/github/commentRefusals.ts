import type { ReadStore } from '../../../readstore/port.ts';
import { COMMENT_REFUSALS, ensurePublishingCollections } from '../collections.ts';

/**
 * PR comments ignored because their author may not steer the project's articles, counted per
 * project beside the read models and never in the event log: a stranger must not be able to grow
 * the log. Shown on the project's GitHub connection (GET …/integrations/github).
 */
export type CommentRefusals = {
  count: number;
  lastAt: string | null;
  lastLogin: string | null;
  lastReason: string | null;
};

const NONE: CommentRefusals = { count: 0, lastAt: null, lastLogin: null, lastReason: null };

/** One count at a time per project in this process, so concurrent deliveries lose no count. */
const queues = new Map<string, Promise<unknown>>();

export async function readCommentRefusals(
  readStore: ReadStore,
  projectId: string,
): Promise<CommentRefusals> {
  await ensurePublishingCollections(readStore);
  const doc = await readStore.get<{ id: string } & CommentRefusals>(COMMENT_REFUSALS, projectId);
  return doc
    ? { count: doc.count, lastAt: doc.lastAt, lastLogin: doc.lastLogin, lastReason: doc.lastReason }
    : NONE;
}

export function countCommentRefusal(
  readStore: ReadStore,
  projectId: string,
  refusal: { login: string; reason: string; at: string },
): Promise<void> {
  const previous = queues.get(projectId) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const { count } = await readCommentRefusals(readStore, projectId);
      await readStore.save(COMMENT_REFUSALS, {
        id: projectId,
        count: count + 1,
        lastAt: refusal.at,
        lastLogin: refusal.login,
        lastReason: refusal.reason,
      });
    });
  queues.set(projectId, next);
  void next
    .finally(() => {
      if (queues.get(projectId) === next) queues.delete(projectId);
    })
    .catch(() => undefined);
  return next;
}
