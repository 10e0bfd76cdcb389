import { commitFiles } from './commitFiles.ts';
import { isGitHubError, type OperationContext } from './errors.ts';
import type { GitHubCall } from './call.ts';
import {
  REPO_ROLES,
  type ActionsJobRead,
  type GitHubRepository,
  type PullRequest,
  type RepoRef,
  type RepoRole,
  type TreeItem,
} from './port.ts';

/** The repository-bound half of the port: branches, files, commits, pull requests, comments. */

type PullJson = {
  number: number;
  state: string;
  merged?: boolean;
  merged_at: string | null;
  html_url: string;
  title: string;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string };
};

const toPullRequest = (pull: PullJson): PullRequest => ({
  number: pull.number,
  state: pull.state === 'open' ? 'open' : 'closed',
  merged: pull.merged ?? pull.merged_at !== null, // list items carry only merged_at
  mergedAt: pull.merged_at,
  htmlUrl: pull.html_url,
  headRef: pull.head.ref,
  headSha: pull.head.sha,
  baseRef: pull.base.ref,
  title: pull.title,
});

const MAX_LIST_PAGES = 10;

const isRepoRole = (name: string): name is RepoRole =>
  (REPO_ROLES as readonly string[]).includes(name);

/** `role_name` for the built-in roles (maintain and triage appear only there), else the base `permission`. */
const roleOf = (data: { permission: string; role_name: string }): RepoRole =>
  isRepoRole(data.role_name)
    ? data.role_name
    : isRepoRole(data.permission)
      ? data.permission
      : 'none';

export async function nullWhenMissing<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isGitHubError(error) && error.code === 'not_found') return null;
    throw error;
  }
}

export function createOctokitRepository(ref: RepoRef, call: GitHubCall): GitHubRepository {
  const { owner, repo } = ref;
  const repository = `${owner}/${repo}`;
  const ctx = (operation: string, permission: string): OperationContext => ({
    operation: `${operation} in ${repository}`,
    repository,
    permission,
  });
  const sameRepository = (pull: PullJson) =>
    pull.head.repo?.full_name.toLowerCase() === repository.toLowerCase();

  const self: GitHubRepository = {
    owner,
    repo,

    async getBranchHead(branch) {
      const found = await nullWhenMissing(
        call(ctx(`read branch ${branch}`, 'contents:read'), (o) =>
          o.rest.git.getRef({ owner, repo, ref: `heads/${branch}` }),
        ),
      );
      return found?.data.object.sha ?? null;
    },

    async createBranch(name, fromSha) {
      try {
        const { data } = await call(ctx(`create branch ${name}`, 'contents:write'), (o) =>
          o.rest.git.createRef({ owner, repo, ref: `refs/heads/${name}`, sha: fromSha }),
        );
        return { sha: data.object.sha, created: true };
      } catch (error) {
        if (
          !isGitHubError(error) ||
          error.code !== 'validation_failed' ||
          !/already exists/i.test(error.reason)
        )
          throw error;
        const sha = await self.getBranchHead(name);
        if (sha === null) throw error;
        return { sha, created: false };
      }
    },

    async getFile(path, ref) {
      const found = await nullWhenMissing(
        call(ctx(`read ${path} at ${ref}`, 'contents:read'), (o) =>
          o.rest.repos.getContent({ owner, repo, path, ref }),
        ),
      );
      const data = found?.data;
      if (!data || Array.isArray(data) || data.type !== 'file') return null;
      if ('encoding' in data && data.encoding === 'base64')
        return { sha: data.sha, content: Buffer.from(data.content, 'base64') };
      // Above 1 MB the contents API leaves `content` empty; the blob API still serves it.
      const blob = await call(ctx(`read blob of ${path}`, 'contents:read'), (o) =>
        o.rest.git.getBlob({ owner, repo, file_sha: data.sha }),
      );
      return {
        sha: data.sha,
        content: Buffer.from(
          blob.data.content,
          blob.data.encoding === 'base64' ? 'base64' : 'utf8',
        ),
      };
    },

    commitFiles: (input) => commitFiles(ref, call, self.getBranchHead, input),

    async findOpenPullRequest(headBranch) {
      const { data } = await call(
        ctx(`find the pull request of ${headBranch}`, 'pull_requests:read'),
        (o) =>
          o.rest.pulls.list({
            owner,
            repo,
            state: 'open',
            head: `${owner}:${headBranch}`,
            per_page: 100,
          }),
      );
      const pull = (data as PullJson[]).find((p) => p.head.ref === headBranch && sameRepository(p));
      return pull ? toPullRequest(pull) : null;
    },

    async createPullRequest(input) {
      const existing = await self.findOpenPullRequest(input.head);
      if (existing) return { ...existing, created: false };
      try {
        const { data } = await call(
          ctx(`open a pull request from ${input.head}`, 'pull_requests:write'),
          (o) =>
            o.rest.pulls.create({
              owner,
              repo,
              head: input.head,
              base: input.base,
              title: input.title,
              body: input.body,
            }),
        );
        return { ...toPullRequest(data as PullJson), created: true };
      } catch (error) {
        // Another attempt (or a lost response) opened it first.
        if (!isGitHubError(error) || !/pull request already exists/i.test(error.reason))
          throw error;
        const opened = await self.findOpenPullRequest(input.head);
        if (!opened) throw error;
        return { ...opened, created: false };
      }
    },

    async getPullRequest(number) {
      const { data } = await call(ctx(`read pull request #${number}`, 'pull_requests:read'), (o) =>
        o.rest.pulls.get({ owner, repo, pull_number: number }),
      );
      return toPullRequest(data as PullJson);
    },

    async updatePullRequestBody(number, body) {
      await call(
        ctx(`update the description of pull request #${number}`, 'pull_requests:write'),
        (o) => o.rest.pulls.update({ owner, repo, pull_number: number, body }),
      );
    },

    async createIssueComment(number, body) {
      const { data } = await call(ctx(`comment on #${number}`, 'pull_requests:write'), (o) =>
        o.rest.issues.createComment({ owner, repo, issue_number: number, body }),
      );
      return { id: data.id, htmlUrl: data.html_url };
    },

    async createCommitStatus(input) {
      await call(
        ctx(`report ${input.context} on ${input.sha.slice(0, 7)}`, 'statuses:write'),
        (o) =>
          o.rest.repos.createCommitStatus({
            owner,
            repo,
            sha: input.sha,
            state: input.state,
            context: input.context,
            description: input.description.slice(0, 140),
            ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
          }),
      );
    },

    async listIssueComments(number) {
      const found: { id: number; body: string; author: string | null }[] = [];
      for (let page = 1; page <= MAX_LIST_PAGES; page++) {
        const { data } = await call(
          ctx(`read the comments of #${number}`, 'pull_requests:read'),
          (o) =>
            o.rest.issues.listComments({ owner, repo, issue_number: number, per_page: 100, page }),
        );
        found.push(
          ...data.map((c) => ({ id: c.id, body: c.body ?? '', author: c.user?.login ?? null })),
        );
        if (data.length < 100) break;
      }
      return found;
    },

    async collaboratorRole(login) {
      const found = await nullWhenMissing(
        call(ctx(`read the permission of ${login}`, 'metadata:read'), (o) =>
          o.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login }),
        ),
      );
      return found && { login, role: roleOf(found.data), roleName: found.data.role_name };
    },

    async listOpenPullRequests(headPrefix) {
      const found: PullRequest[] = [];
      for (let page = 1; page <= MAX_LIST_PAGES; page++) {
        const { data } = await call(ctx('list open pull requests', 'pull_requests:read'), (o) =>
          o.rest.pulls.list({ owner, repo, state: 'open', per_page: 100, page }),
        );
        const pulls = data as PullJson[];
        found.push(
          ...pulls
            .filter((p) => p.head.ref.startsWith(headPrefix) && sameRepository(p))
            .map(toPullRequest),
        );
        if (pulls.length < 100) break;
      }
      return found;
    },

    async getBranchTip(branch) {
      const found = await nullWhenMissing(
        call(ctx(`read branch ${branch}`, 'contents:read'), (o) =>
          o.rest.repos.getBranch({ owner, repo, branch }),
        ),
      );
      return found && { commit: found.data.commit.sha, tree: found.data.commit.commit.tree.sha };
    },

    async readTree(treeSha) {
      const { data } = await call(
        ctx(`read the tree ${treeSha.slice(0, 7)}`, 'contents:read'),
        (o) => o.rest.git.getTree({ owner, repo, tree_sha: treeSha, recursive: '1' }),
      );
      const items: TreeItem[] = [];
      for (const entry of data.tree) {
        if (!entry.path || !entry.sha || !entry.mode) continue;
        const type: TreeItem['type'] =
          entry.mode === '120000'
            ? 'symlink'
            : entry.type === 'tree' || entry.type === 'commit'
              ? entry.type
              : 'blob';
        items.push({
          path: entry.path,
          type,
          mode: entry.mode,
          sha: entry.sha,
          size: entry.size ?? null,
        });
      }
      return { sha: data.sha, items, truncated: data.truncated };
    },

    async readBlob(sha, maxBytes) {
      const { data } = await call(ctx(`read blob ${sha.slice(0, 7)}`, 'contents:read'), (o) =>
        o.rest.git.getBlob({ owner, repo, file_sha: sha }),
      );
      if (data.size !== null && data.size !== undefined && data.size > maxBytes) return null;
      const bytes = Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8');
      return bytes.length > maxBytes ? null : bytes;
    },

    async listCheckRuns(ref) {
      const { data } = await call(ctx(`read the check runs of ${ref}`, 'checks:read'), (o) =>
        o.rest.checks.listForRef({ owner, repo, ref, per_page: 100, filter: 'latest' }),
      );
      return data.check_runs.map((run) => ({
        id: run.id,
        name: run.name,
        status: run.status,
        conclusion: run.conclusion ?? null,
        detailsUrl: run.details_url ?? null,
        htmlUrl: run.html_url ?? null,
        title: run.output?.title ?? null,
        summary: run.output?.summary ?? null,
      }));
    },

    async listCheckRunAnnotations(checkRunId) {
      const { data } = await call(
        ctx(`read the annotations of check run ${checkRunId}`, 'checks:read'),
        (o) =>
          o.rest.checks.listAnnotations({ owner, repo, check_run_id: checkRunId, per_page: 50 }),
      );
      return data.map((a) => ({
        path: a.path,
        startLine: a.start_line,
        level: a.annotation_level ?? null,
        title: a.title ?? null,
        message: a.message ?? null,
      }));
    },

    async getCombinedStatus(ref) {
      const { data } = await call(ctx(`read the statuses of ${ref}`, 'statuses:read'), (o) =>
        o.rest.repos.getCombinedStatusForRef({ owner, repo, ref, per_page: 100 }),
      );
      return data.statuses.map((s) => ({
        context: s.context,
        state: s.state,
        targetUrl: s.target_url ?? null,
        description: s.description ?? null,
      }));
    },

    async listDeployments(sha) {
      const { data } = await call(ctx(`read the deployments of ${sha}`, 'deployments:read'), (o) =>
        o.rest.repos.listDeployments({ owner, repo, sha, per_page: 10 }),
      );
      return data.map((d) => ({ id: d.id, environment: d.environment }));
    },

    async listDeploymentStatuses(deploymentId) {
      const { data } = await call(
        ctx(`read the statuses of deployment ${deploymentId}`, 'deployments:read'),
        (o) =>
          o.rest.repos.listDeploymentStatuses({
            owner,
            repo,
            deployment_id: deploymentId,
            per_page: 10,
          }),
      );
      return data.map((s) => ({ state: s.state, environmentUrl: s.environment_url ?? null }));
    },

    async listActionsJobs(headSha) {
      const { data } = await call(
        ctx(`read the workflow runs of ${headSha}`, 'actions:read'),
        (o) =>
          o.rest.actions.listWorkflowRunsForRepo({ owner, repo, head_sha: headSha, per_page: 10 }),
      );
      const jobs: ActionsJobRead[] = [];
      for (const run of data.workflow_runs.slice(0, 10)) {
        const listed = await call(
          ctx(`read the jobs of workflow run ${run.id}`, 'actions:read'),
          (o) =>
            o.rest.actions.listJobsForWorkflowRun({ owner, repo, run_id: run.id, per_page: 100 }),
        );
        jobs.push(
          ...listed.data.jobs.map((job) => ({
            name: job.name,
            workflowName: job.workflow_name ?? run.name ?? null,
            status: job.status,
            conclusion: job.conclusion ?? null,
            htmlUrl: job.html_url ?? null,
          })),
        );
      }
      return jobs;
    },
  };
  return self;
}
