import type { CollectionSpec } from '../../readstore/port.ts';
import { collectionsDeclaredOnce } from '../../readstore/ensureOnce.ts';

/**
 * State the publishing feature keeps beside the read models, none of it derived from the log (a
 * rebuild leaves it alone): the job queue of GitHub and hook work, the GitHub deliveries already
 * handled, the outcome of the last post-publish hook call per project, the last calls of each
 * project's hook (publications and test calls), and the count of PR comments ignored per project
 * because their author may not steer articles.
 */
export const PUBLISHING_JOBS = 'publishing_jobs';
export const GITHUB_DELIVERIES = 'github_deliveries';
export const HOOK_STATUS = 'post_publish_status';
export const COMMENT_REFUSALS = 'github_comment_refusals';
export const HOOK_CALLS = 'post_publish_calls';
/** Per article: the head commit whose site build is followed, and when it was last read (build/buildWatch.ts). */
export const BUILD_WATCH = 'github_build_watch';
/** Per project and GitHub event name: when a signed delivery of it last arrived. */
export const GITHUB_EVENT_KINDS = 'github_event_kinds';

const COLLECTIONS: readonly CollectionSpec[] = [
  { name: PUBLISHING_JOBS, indexes: ['due', 'articleId'] },
  { name: GITHUB_DELIVERIES, indexes: [] },
  { name: HOOK_STATUS, indexes: [] },
  { name: COMMENT_REFUSALS, indexes: [] },
  { name: HOOK_CALLS, indexes: [{ projectId: 1, at: -1 }] },
  { name: BUILD_WATCH, indexes: [] },
  { name: GITHUB_EVENT_KINDS, indexes: ['projectId'] },
];

/** Declares the collections once per store; every user (consumer, worker, routes) awaits it. */
export const ensurePublishingCollections = collectionsDeclaredOnce(COLLECTIONS);
