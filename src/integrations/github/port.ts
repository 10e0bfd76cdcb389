/**
 * What publishing needs from GitHub. One port per credential (a fine-grained token or a GitHub App
 * installation); `repository()` binds it to one repository. Every write is idempotent, so a
 * consumer that crashed half-way can run the same step again without duplicating anything.
 * Failures are thrown as GitHubError (./errors.ts).
 */

export type RepoRef = { owner: string; repo: string };

export type RepoAccess = {
  defaultBranch: string;
  /**
   * Whether a direct push to the base branch is expected to be accepted: false when the branch is
   * protected, and the project should publish through pull requests.
   */
  canPush: boolean;
};

export type FileToCommit = { path: string; content: Buffer | string };

export type CommitFilesInput = {
  branch: string;
  message: string;
  files: FileToCommit[];
  /** Refuse (GitHubError `conflict`) if the branch moved since the caller read it. */
  expectedHeadSha?: string;
};

/** `created: false` when the branch head already had exactly this content: nothing was committed. */
export type CommitResult = { sha: string; created: boolean };

export type RepoFile = { sha: string; content: Buffer };

export type PullRequest = {
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  mergedAt: string | null;
  htmlUrl: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  title: string;
};

export type CreatePullRequestInput = { head: string; base: string; title: string; body: string };

export type IssueComment = { id: number; htmlUrl: string };

/** A commit status: GitHub shows the newest per `context` beside the commit and on its pull request. */
export type CommitStatusInput = {
  sha: string;
  state: 'success' | 'failure' | 'pending' | 'error';
  context: string;
  description: string;
  targetUrl?: string;
};

export type ListedComment = { id: number; body: string; author: string | null };

/** A person's role on a repository, lowest first; `none` when they have no access at all. */
export const REPO_ROLES = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type RepoRole = (typeof REPO_ROLES)[number];

/**
 * What a person may do in a repository: `role` is GitHub's `role_name` when it is one of the
 * built-in roles, else (a custom role) the legacy base `permission`, which reads maintain as write
 * and triage as read, so a custom role is never taken for more than its base.
 */
export type Collaborator = { login: string; role: RepoRole; roleName: string };

/**
 * One entry of a recursive tree read. `symlink` (mode 120000) and `commit` (a submodule, mode
 * 160000) are listed but never followed; `size` is known for blobs and symlinks only.
 */
export type TreeItem = {
  path: string;
  type: 'blob' | 'tree' | 'commit' | 'symlink';
  mode: string;
  sha: string;
  size: number | null;
};

/** A whole tree in one read; `truncated` when GitHub cut the listing short (above 100,000 entries or 7 MB). */
export type RepoTree = { sha: string; items: TreeItem[]; truncated: boolean };

/** A branch's head commit and that commit's root tree. */
export type BranchTip = { commit: string; tree: string };

/** A check run on a commit (GitHub Actions jobs, other CI apps). Needs "Checks: read". */
export type CheckRunRead = {
  id: number;
  name: string;
  status: string;
  /** Null until the run completed. */
  conclusion: string | null;
  detailsUrl: string | null;
  htmlUrl: string | null;
  title: string | null;
  summary: string | null;
};

export type CheckAnnotationRead = {
  path: string;
  startLine: number;
  level: string | null;
  title: string | null;
  message: string | null;
};

/** The newest commit status of one context (GitHub's combined status). */
export type CommitStatusRead = {
  context: string;
  state: string;
  targetUrl: string | null;
  description: string | null;
};

export type DeploymentRead = { id: number; environment: string };
export type DeploymentStatusRead = { state: string; environmentUrl: string | null };

/** A GitHub Actions job of a workflow run of a commit (the Actions API; "Actions: read"). */
export type ActionsJobRead = {
  name: string;
  workflowName: string | null;
  status: string;
  conclusion: string | null;
  htmlUrl: string | null;
};

export interface GitHubRepository {
  readonly owner: string;
  readonly repo: string;
  /** The commit sha a branch points at, or null when the branch does not exist. */
  getBranchHead(branch: string): Promise<string | null>;
  /** Creates `refs/heads/<name>` at `fromSha`; an existing branch is returned as it is. */
  createBranch(name: string, fromSha: string): Promise<{ sha: string; created: boolean }>;
  /** A file's blob sha and bytes at a branch, tag or commit; null when there is no file there. */
  getFile(path: string, ref: string): Promise<RepoFile | null>;
  /** One commit with all `files` on top of the branch head (blobs → tree → commit → ref). */
  commitFiles(input: CommitFilesInput): Promise<CommitResult>;
  /** The open pull request whose head is `headBranch` of this repository, or null. */
  findOpenPullRequest(headBranch: string): Promise<PullRequest | null>;
  /** Opens a pull request, or returns the one already open for `head` (`created: false`). */
  createPullRequest(input: CreatePullRequestInput): Promise<PullRequest & { created: boolean }>;
  getPullRequest(number: number): Promise<PullRequest>;
  /** Replaces the pull request's description; the same body again changes nothing GitHub shows. */
  updatePullRequestBody(number: number, body: string): Promise<void>;
  createIssueComment(number: number, body: string): Promise<IssueComment>;
  /** Posts a commit status (the token needs "Commit statuses: write"); a second post of a context replaces what GitHub shows. */
  createCommitStatus(input: CommitStatusInput): Promise<void>;
  /** The conversation's comments, oldest first (up to 1,000): how a caller finds a comment it already posted. */
  listIssueComments(number: number): Promise<ListedComment[]>;
  /** `login`'s role on this repository; null when GitHub knows no such user (404). */
  collaboratorRole(login: string): Promise<Collaborator | null>;
  /** Open pull requests from branches of this repository whose name starts with `headPrefix`. */
  listOpenPullRequests(headPrefix: string): Promise<PullRequest[]>;
  /** The branch's head commit and its tree sha in one read; null when the branch does not exist. */
  getBranchTip(branch: string): Promise<BranchTip | null>;
  /** The tree `treeSha` and everything under it, in one recursive read (never a walk). */
  readTree(treeSha: string): Promise<RepoTree>;
  /** A blob's bytes by sha; null when it holds more than `maxBytes` (its bytes are then not kept). */
  readBlob(sha: string, maxBytes: number): Promise<Buffer | null>;

  /** The check runs of a commit (first 100). A fine-grained token cannot read them: `missing_permission`. */
  listCheckRuns(ref: string): Promise<CheckRunRead[]>;
  /** A check run's annotations (first 50). */
  listCheckRunAnnotations(checkRunId: number): Promise<CheckAnnotationRead[]>;
  /** The newest status per context on a commit ("Commit statuses: read"). */
  getCombinedStatus(ref: string): Promise<CommitStatusRead[]>;
  /** Deployments of a commit, newest first (first 10; "Deployments: read"). */
  listDeployments(sha: string): Promise<DeploymentRead[]>;
  /** A deployment's statuses, newest first (first 10). */
  listDeploymentStatuses(deploymentId: number): Promise<DeploymentStatusRead[]>;
  /** The jobs of the GitHub Actions runs of a commit (first 10 runs, 100 jobs each; "Actions: read"). */
  listActionsJobs(headSha: string): Promise<ActionsJobRead[]>;
}

export interface GitHubPort {
  /**
   * Checks that the repository is reachable with write access and that `baseBranch` exists.
   * Throws GitHubError: `token_invalid`, `not_found`, `missing_permission`, `branch_missing`.
   */
  validateAccess(input: RepoRef & { baseBranch: string }): Promise<RepoAccess>;
  repository(ref: RepoRef): GitHubRepository;
}
