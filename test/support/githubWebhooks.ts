import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { simpleUser, type Urls } from './fakeGitHub/objects.ts';
import { assertWebhookPayload } from './fakeGitHub/openapi.ts';
import type { FakeGitHub } from './fakeGitHub.ts';
import type { CheckRunRecord } from './fakeGitHub/state.ts';

/**
 * Inbound GitHub webhooks for tests: payloads built from the fake GitHub's REST JSON (so numbers,
 * urls and shas agree with what the adapter saw), validated against `@octokit/openapi-webhooks`,
 * and signed like GitHub does.
 *
 *   github.mergePullRequest('acme', 'site', 1);
 *   const payload = pullRequestClosed(github, { owner: 'acme', repo: 'site', number: 1 });
 *   const delivery = await signWebhook('pull_request', payload, secret);
 *   await fetch(`${app}/integrations/github/webhook`, { method: 'POST', headers: delivery.headers, body: delivery.body });
 */

export type PullRequestTarget = {
  owner: string;
  repo: string;
  number: number;
  installationId?: number;
};

export type SignedWebhook = {
  /** The exact bytes to POST; the signature covers them. */
  body: string;
  headers: Record<string, string>;
  deliveryId: string;
};

type Json = Record<string, any>;

/**
 * Who wrote a comment. Its `author_association` is what GitHub would say from the fake's state
 * (OWNER, COLLABORATOR, else NONE) unless `association` says otherwise (MEMBER, CONTRIBUTOR…).
 */
export type CommentAuthor = { author: string; association?: string };

const associationOf = (github: FakeGitHub, target: PullRequestTarget & CommentAuthor) =>
  target.association ?? github.associationOf(target.owner, target.repo, target.author);

const reactions = (url: string) => ({
  url: `${url}/reactions`,
  total_count: 0,
  '+1': 0,
  '-1': 0,
  laugh: 0,
  confused: 0,
  heart: 0,
  hooray: 0,
  eyes: 0,
  rocket: 0,
});

function context(github: FakeGitHub, target: PullRequestTarget) {
  const pull = github.pullRequestJson(target.owner, target.repo, target.number) as Json;
  const repository = github.repositoryJson(target.owner, target.repo) as Json;
  const urls: Urls = {
    api: repository.url.slice(0, -`/repos/${repository.full_name}`.length),
    html: new URL(repository.html_url).origin,
  };
  const installation =
    target.installationId === undefined
      ? {}
      : { installation: { id: target.installationId, node_id: `I_${target.installationId}` } };
  return { pull, repository, urls, installation };
}

/** `pull_request` / `closed`: merged when the fake's PR was merged, closed unmerged otherwise. */
export function pullRequestClosed(
  github: FakeGitHub,
  target: PullRequestTarget & { sender?: string },
): Json {
  const { pull, repository, urls, installation } = context(github, target);
  if (pull.state !== 'closed')
    throw new Error(
      `pull request #${target.number} is still open; merge or close it in the fake first`,
    );
  const payload = {
    action: 'closed',
    number: pull.number,
    pull_request: { ...pull, allow_auto_merge: false, delete_branch_on_merge: false },
    repository,
    sender: simpleUser(target.sender ?? pull.merged_by?.login ?? target.owner, urls),
    ...installation,
  };
  assertWebhookPayload('pull-request-closed', payload);
  return payload;
}

/** `issue_comment` / `created` on the pull request's conversation tab. */
export function issueCommentCreated(
  github: FakeGitHub,
  target: PullRequestTarget & CommentAuthor & { body: string; commentId?: number },
): Json {
  const { pull, repository, urls, installation } = context(github, target);
  const issueUrl = pull.issue_url as string;
  const id = target.commentId ?? 7_000_000 + target.number;
  const user = simpleUser(target.author, urls);
  const comment = {
    id,
    node_id: `IC_${id}`,
    url: `${repository.url}/issues/comments/${id}`,
    html_url: `${pull.html_url}#issuecomment-${id}`,
    issue_url: issueUrl,
    user,
    body: target.body,
    created_at: github.nowIso(),
    updated_at: github.nowIso(),
    author_association: associationOf(github, target),
    performed_via_github_app: null,
    reactions: reactions(`${repository.url}/issues/comments/${id}`),
  };
  const issue = {
    id: pull.id,
    node_id: pull.node_id,
    number: pull.number,
    title: pull.title,
    body: pull.body,
    user: pull.user,
    url: issueUrl,
    repository_url: repository.url,
    labels_url: `${issueUrl}/labels{/name}`,
    comments_url: pull.comments_url,
    events_url: `${issueUrl}/events`,
    timeline_url: `${issueUrl}/timeline`,
    html_url: pull.html_url,
    labels: [],
    state: pull.state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: pull.comments + 1,
    created_at: pull.created_at,
    updated_at: github.nowIso(),
    closed_at: pull.closed_at,
    author_association: pull.author_association,
    active_lock_reason: null,
    draft: false,
    performed_via_github_app: null,
    reactions: reactions(issueUrl),
    pull_request: {
      url: pull.url,
      html_url: pull.html_url,
      diff_url: pull.diff_url,
      patch_url: pull.patch_url,
      merged_at: pull.merged_at,
    },
  };
  const payload = { action: 'created', issue, comment, repository, sender: user, ...installation };
  assertWebhookPayload('issue-comment-created', payload);
  return payload;
}

/** `pull_request_review_comment` / `created`: a comment on a line of a changed file. */
export function pullRequestReviewCommentCreated(
  github: FakeGitHub,
  target: PullRequestTarget &
    CommentAuthor & { body: string; path: string; line: number; commentId?: number },
): Json {
  const { pull, repository, urls, installation } = context(github, target);
  const id = target.commentId ?? 8_000_000 + target.number;
  const url = `${repository.url}/pulls/comments/${id}`;
  const htmlUrl = `${pull.html_url}#discussion_r${id}`;
  const user = simpleUser(target.author, urls);
  const comment = {
    id,
    node_id: `PRRC_${id}`,
    url,
    html_url: htmlUrl,
    pull_request_url: pull.url,
    pull_request_review_id: id + 1,
    diff_hunk: `@@ -0,0 +1,${target.line} @@`,
    path: target.path,
    position: target.line,
    original_position: target.line,
    commit_id: pull.head.sha,
    original_commit_id: pull.head.sha,
    user,
    body: target.body,
    created_at: github.nowIso(),
    updated_at: github.nowIso(),
    author_association: associationOf(github, target),
    start_line: null,
    original_start_line: null,
    line: target.line,
    original_line: target.line,
    start_side: null,
    side: 'RIGHT',
    subject_type: 'line',
    reactions: reactions(url),
    _links: { self: { href: url }, html: { href: htmlUrl }, pull_request: { href: pull.url } },
  };
  const pullRequest = { ...pull };
  for (const key of [
    'merged',
    'mergeable',
    'rebaseable',
    'mergeable_state',
    'merged_by',
    'comments',
    'review_comments',
    'commits',
    'additions',
    'deletions',
    'changed_files',
    'maintainer_can_modify',
  ]) {
    delete pullRequest[key];
  }
  const payload = {
    action: 'created',
    comment,
    pull_request: pullRequest,
    repository,
    sender: user,
    ...installation,
  };
  assertWebhookPayload('pull-request-review-comment-created', payload);
  return payload;
}

/** `check_run` / `completed` (or `created` while it runs) for a check run the fake holds. */
export function checkRunEvent(
  github: FakeGitHub,
  target: { owner: string; repo: string; run: CheckRunRecord },
): Json {
  const repository = github.repositoryJson(target.owner, target.repo) as Json;
  const urls: Urls = {
    api: repository.url.slice(0, -`/repos/${repository.full_name}`.length),
    html: new URL(repository.html_url).origin,
  };
  const payload = {
    action: target.run.status === 'completed' ? 'completed' : 'created',
    check_run: github.checkRunJson(target.owner, target.repo, target.run),
    repository,
    sender: simpleUser(target.owner, urls),
  };
  assertWebhookPayload(`check-run-${payload.action}`, payload);
  return payload;
}

/**
 * Serializes and signs a payload as GitHub delivers it: `X-Hub-Signature-256: sha256=<hmac>` over
 * the raw body (via @octokit/webhooks-methods), `X-GitHub-Event`, `X-GitHub-Delivery`.
 */
export async function signWebhook(
  event: string,
  payload: object,
  secret: string,
  deliveryId: string = randomUUID(),
): Promise<SignedWebhook> {
  const body = JSON.stringify(payload);
  return {
    body,
    deliveryId,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
      'x-github-event': event,
      'x-github-delivery': deliveryId,
      'x-github-hook-id': '1',
      'x-hub-signature-256': await sign(secret, body),
    },
  };
}
