import type { ArticleDoc } from '../../../../projections/articles.ts';
import { allowedFrom, type ActiveArticle } from '../../../domain/articles/article.ts';
import { articleStream, type ArticleCommand } from '../../../domain/articles/decide.ts';
import { deriveId } from '../../../core/ids.ts';
import { loadStream, type CommandContext } from '../../../eventstore/handleCommand.ts';
import { DuplicateEventIdError } from '../../../eventstore/appendPlan.ts';
import type { Platform } from '../../../platform.ts';
import { BRANCH_PREFIX } from '../articleFiles.ts';
import { mayCommentSteer } from './commentAuthority.ts';
import { countCommentRefusal } from './commentRefusals.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';
import { INKSTREAM_MARKER } from '../prText.ts';
import { buildEventSha, isBuildEvent, nudgeBuild } from '../build/buildEvents.ts';

/** What an inbound GitHub event did, for the 202 answer and GitHub's delivery log. */
export type EventOutcome = { status: 'accepted' | 'ignored'; detail: string };

type Json = Record<string, any>;
type Target = {
  platform: Platform;
  projectId: string;
  accountId: string;
  repository: string;
  deliveryId: string;
  connection: GitHubConnection;
};

const MAX_INSTRUCTION = 4000;
const ignored = (detail: string): EventOutcome => ({ status: 'ignored', detail });

/**
 * The article whose current pull request this is, if Inkstream opened it for this project: same
 * number and, when the payload names it (issue comments do not), the same branch.
 */
export async function articleOfPullRequest(
  platform: Platform,
  projectId: string,
  number: number,
  headRef: string | null,
): Promise<ActiveArticle | null> {
  const page = await platform.readStore.find<ArticleDoc>('articles', {
    filter: { projectId, prNumber: number },
    limit: 5,
  });
  for (const doc of page.items) {
    const { state } = await loadStream(platform.eventStore, articleStream, doc.id);
    if (
      state.status !== 'none' &&
      state.pr?.number === number &&
      (headRef === null || state.pr.branch === headRef)
    )
      return state;
  }
  return null;
}

/**
 * Records a command caused by GitHub. Ids derive from GitHub's own (the PR number, the comment
 * id), so the same fact arriving twice (a redelivery, the reconciler) is recorded once.
 */
async function record(
  target: Target,
  article: ActiveArticle,
  login: string,
  key: string,
  command: ArticleCommand,
): Promise<boolean> {
  const context: CommandContext = {
    accountId: target.accountId,
    actor: { kind: 'github', login },
    correlationId: `github:${target.deliveryId}`,
    requestId: `github:${target.deliveryId}`,
    commandId: `github:${target.projectId}:${target.repository}:${key}`,
  };
  try {
    const result = await target.platform.commands.execute(
      articleStream,
      article.id,
      command,
      context,
    );
    return result.events.length > 0;
  } catch (error) {
    if (error instanceof DuplicateEventIdError) return false;
    throw error;
  }
}

/** An ISO 8601 timestamp from a payload, normalized; anything else (a number, an object, text) is null. */
function timestampOf(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})$/.test(value))
    return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const COMMIT_SHA = /^[0-9a-f]{40}$/;

async function pullRequestClosed(target: Target, payload: Json): Promise<EventOutcome> {
  const pull = payload.pull_request as Json;
  if (!String(pull?.head?.ref ?? '').startsWith(BRANCH_PREFIX))
    return ignored('not an Inkstream pull request');
  const article = await articleOfPullRequest(
    target.platform,
    target.projectId,
    Number(pull.number),
    String(pull.head.ref),
  );
  if (!article)
    return ignored(
      `pull request #${pull.number} is not an Inkstream article's current pull request`,
    );
  const now = target.platform.clock.now();
  const login = String(pull.merged_by?.login ?? payload.sender?.login ?? 'github');
  // A signed payload is still only GitHub's word, and the signing secret may have leaked: what
  // goes into the event (and out in signed webhooks) is the pull request's address Inkstream
  // recorded when it opened it, never the payload's `html_url` (a `javascript:` URL), and
  // timestamps and the commit only when they are what they claim to be.
  const prUrl = article.pr?.url ?? '';
  const mergeSha =
    typeof pull.merge_commit_sha === 'string' && COMMIT_SHA.test(pull.merge_commit_sha)
      ? pull.merge_commit_sha
      : null;
  const done = pull.merged
    ? await record(target, article, login, `pr:${pull.number}:merged`, {
        type: 'RecordMerged',
        commitSha: mergeSha,
        prUrl,
        path: article.path ?? '',
        mergedBy: login,
        at: timestampOf(pull.merged_at) ?? now,
      })
    : await record(
        target,
        article,
        String(payload.sender?.login ?? 'github'),
        `pr:${pull.number}:closed`,
        {
          type: 'RecordClosed',
          prUrl,
          closedBy: typeof payload.sender?.login === 'string' ? payload.sender.login : null,
          at: timestampOf(pull.closed_at) ?? now,
        },
      );
  const what = pull.merged ? 'merged' : 'closed';
  return done
    ? { status: 'accepted', detail: `article ${article.id} ${what}` }
    : ignored(`article ${article.id} was already ${article.status}`);
}

async function commentCreated(
  target: Target,
  payload: Json,
  number: number,
  headRef: string | null,
  where: string | null,
): Promise<EventOutcome> {
  const comment = payload.comment as Json;
  const body = String(comment?.body ?? '').trim();
  if (comment?.user?.type === 'Bot' || body.includes(INKSTREAM_MARKER))
    return ignored('a comment by a bot or by Inkstream itself');
  if (!body) return ignored('an empty comment');
  const article = await articleOfPullRequest(target.platform, target.projectId, number, headRef);
  if (!article) return ignored(`#${number} is not an Inkstream article's open pull request`);
  if (!(allowedFrom.revise as readonly string[]).includes(article.status))
    return ignored(
      `article ${article.id} is ${article.status}: comments are revisions only while its pull request is open`,
    );
  const login = String(comment.user?.login ?? '');
  if (!login) return ignored('a comment without an author');
  const verdict = await mayCommentSteer(
    target.platform,
    target.connection,
    { accountId: target.accountId, projectId: target.projectId },
    { login, association: String(comment.author_association ?? 'NONE') },
  );
  if (!verdict.allowed) return refused(target, article.id, login, verdict.reason);
  const instruction = (where ? `${where}: ${body}` : body).slice(0, MAX_INSTRUCTION);
  const createdAt = Date.parse(String(comment.created_at)) || target.platform.clock.nowMs();
  const revisionId = deriveId(
    'rev',
    createdAt,
    'github-comment',
    target.repository,
    String(comment.id),
  );
  const done = await record(target, article, login, `comment:${comment.id}`, {
    type: 'RequestRevision',
    revisionId,
    instruction,
    source: { kind: 'github', login, commentId: Number(comment.id), prNumber: number },
    at: target.platform.clock.now(),
  });
  return done
    ? { status: 'accepted', detail: `revision ${revisionId} queued for article ${article.id}` }
    : ignored('this comment was already taken as a revision');
}

/** Logged and counted, never recorded on the article's stream: a stranger must not grow the log. */
async function refused(
  target: Target,
  articleId: string,
  login: string,
  reason: string,
): Promise<EventOutcome> {
  target.platform.logger.warn(
    { projectId: target.projectId, repository: target.repository, articleId, login, reason },
    'GitHub comment ignored: its author may not steer articles',
  );
  await countCommentRefusal(target.platform.readStore, target.projectId, {
    login,
    reason,
    at: target.platform.clock.now(),
  });
  return ignored(reason);
}

/** pull_request closed (merged or not), comments on an Inkstream pull request, and the site build's events; everything else is acknowledged and ignored. */
export async function actOnGitHubEvent(
  target: Target,
  name: string,
  payload: Json,
): Promise<EventOutcome> {
  const action = String(payload.action ?? '');
  if (name === 'ping')
    return {
      status: 'accepted',
      detail: 'pong: the webhook reaches Inkstream and its signature checks out',
    };
  if (name === 'pull_request' && action === 'closed') return pullRequestClosed(target, payload);
  // The site's build changed: validated, then read again over REST (build/buildEvents.ts).
  if (isBuildEvent(name))
    return nudgeBuild(target.platform, target.projectId, buildEventSha(name, payload));
  if (name === 'issue_comment' && action === 'created') {
    if (!payload.issue?.pull_request)
      return ignored('a comment on an issue, not on a pull request');
    return commentCreated(target, payload, Number(payload.issue.number), null, null);
  }
  if (name === 'pull_request_review_comment' && action === 'created') {
    const { path, line } = payload.comment ?? {};
    return commentCreated(
      target,
      payload,
      Number(payload.pull_request?.number),
      String(payload.pull_request?.head?.ref ?? ''),
      path ? `On ${path}${line ? ` line ${line}` : ''}` : null,
    );
  }
  return ignored(`${name}${action ? `.${action}` : ''} is not an event Inkstream acts on`);
}
