import { GitStore } from './gitStore.ts';

/** The in-memory world of the fake GitHub: repositories, who may do what, and the clock. */

export type Access = 'read' | 'write';
/** Fine-grained permissions as GitHub Apps and fine-grained tokens name them. */
export type Grant = {
  contents?: Access;
  pull_requests?: Access;
  issues?: Access;
  statuses?: Access;
  /** Fine-grained personal access tokens cannot hold this one; GitHub Apps and classic tokens can. */
  checks?: Access;
  deployments?: Access;
  actions?: Access;
};
export type PermissionName = keyof Grant | 'metadata';

export type Actor = {
  login: string;
  id: number;
  kind: 'user' | 'installation';
  /** Keyed by `owner/name`. A repository missing here is invisible to the actor (404). */
  grants: Map<string, Grant>;
};

export type PullRequestRecord = {
  number: number;
  id: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  author: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergedAt: string | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Frozen when the PR closes; read live from the branch while it is open. */
  closedHeadSha: string | null;
};

/** A person's role on a repository, as GitHub names them (lowest first). */
export type RepoRole = 'read' | 'triage' | 'write' | 'maintain' | 'admin';

/** A commit status (`POST /repos/{owner}/{repo}/statuses/{sha}`); the newest per context is the one GitHub shows. */
export type StatusRecord = {
  id: number;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: string;
  createdAt: string;
};

export type CommentRecord = {
  id: number;
  issueNumber: number;
  body: string;
  author: string;
  createdAt: string;
};

export type RepoRecord = {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
  createdAt: string;
  branches: Map<string, string>;
  protectedBranches: Set<string>;
  git: GitStore;
  pulls: Map<number, PullRequestRecord>;
  comments: CommentRecord[];
  statuses: StatusRecord[];
  nextNumber: number;
  /** People given a role on the repository (the owner is admin without being listed). */
  collaborators: Map<string, RepoRole>;
  /** Entries a recursive tree read lists before it says `truncated` (GitHub: 100,000). */
  treeListLimit: number;
  /** What a CI reported on commits: check runs (GitHub Actions jobs among them) and deployments. */
  checkRuns?: CheckRunRecord[];
  deployments?: DeploymentRecord[];
};

export type CheckAnnotationRecord = {
  path: string;
  startLine: number;
  level: 'notice' | 'warning' | 'failure';
  title: string | null;
  message: string;
};

/** A check run; `workflow` set: a GitHub Actions job of that workflow (listed by the Actions API too). */
export type CheckRunRecord = {
  id: number;
  sha: string;
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | null;
  title: string | null;
  summary: string | null;
  detailsUrl: string | null;
  workflow: string | null;
  annotations: CheckAnnotationRecord[];
  startedAt: string;
  completedAt: string | null;
};

export type DeploymentStatusRecord = {
  id: number;
  state: 'error' | 'failure' | 'inactive' | 'pending' | 'success' | 'queued' | 'in_progress';
  environmentUrl: string;
  description: string;
  createdAt: string;
};

export type DeploymentRecord = {
  id: number;
  sha: string;
  ref: string;
  environment: string;
  creator: string;
  createdAt: string;
  statuses: DeploymentStatusRecord[];
};

export const fullName = (repo: { owner: string; name: string }) => `${repo.owner}/${repo.name}`;

export const grantAll = (access: Access): Grant => ({
  contents: access,
  pull_requests: access,
  issues: access,
  statuses: access,
  checks: access,
  deployments: access,
  actions: access,
});

export function allows(
  grant: Grant | undefined,
  permission: PermissionName,
  access: Access,
): boolean {
  if (!grant) return false;
  if (permission === 'metadata') return access === 'read';
  const held = grant[permission];
  return held === 'write' || (held === 'read' && access === 'read');
}

export const pullHeadSha = (repo: RepoRecord, pull: PullRequestRecord): string =>
  pull.closedHeadSha ?? repo.branches.get(pull.head) ?? '';
