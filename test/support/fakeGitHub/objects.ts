import type { GitCommit } from './gitStore.ts';
import {
  fullName,
  pullHeadSha,
  type CommentRecord,
  type PullRequestRecord,
  type RepoRecord,
} from './state.ts';

/**
 * JSON bodies shaped as GitHub sends them. Every field GitHub's OpenAPI description requires is
 * present; the fake validates each body before sending it, so a missing one fails loudly.
 */

export type Urls = { api: string; html: string };

const nodeId = (kind: string, id: number | string) =>
  Buffer.from(`${kind}:${id}`).toString('base64');
const userId = (login: string) =>
  [...login].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 9_000_000, 7) + 1000;

export function simpleUser(login: string, urls: Urls) {
  const api = `${urls.api}/users/${login}`;
  return {
    login,
    id: userId(login),
    node_id: nodeId('User', login),
    avatar_url: `${urls.html}/${login}.png`,
    gravatar_id: '',
    url: api,
    html_url: `${urls.html}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: login.endsWith('[bot]') ? 'Bot' : 'User',
    site_admin: false,
  };
}

const repoUrlTemplates = (api: string) => ({
  archive_url: `${api}/{archive_format}{/ref}`,
  assignees_url: `${api}/assignees{/user}`,
  blobs_url: `${api}/git/blobs{/sha}`,
  branches_url: `${api}/branches{/branch}`,
  collaborators_url: `${api}/collaborators{/collaborator}`,
  comments_url: `${api}/comments{/number}`,
  commits_url: `${api}/commits{/sha}`,
  compare_url: `${api}/compare/{base}...{head}`,
  contents_url: `${api}/contents/{+path}`,
  contributors_url: `${api}/contributors`,
  deployments_url: `${api}/deployments`,
  downloads_url: `${api}/downloads`,
  events_url: `${api}/events`,
  forks_url: `${api}/forks`,
  git_commits_url: `${api}/git/commits{/sha}`,
  git_refs_url: `${api}/git/refs{/sha}`,
  git_tags_url: `${api}/git/tags{/sha}`,
  hooks_url: `${api}/hooks`,
  issue_comment_url: `${api}/issues/comments{/number}`,
  issue_events_url: `${api}/issues/events{/number}`,
  issues_url: `${api}/issues{/number}`,
  keys_url: `${api}/keys{/key_id}`,
  labels_url: `${api}/labels{/name}`,
  languages_url: `${api}/languages`,
  merges_url: `${api}/merges`,
  milestones_url: `${api}/milestones{/number}`,
  notifications_url: `${api}/notifications{?since,all,participating}`,
  pulls_url: `${api}/pulls{/number}`,
  releases_url: `${api}/releases{/id}`,
  stargazers_url: `${api}/stargazers`,
  statuses_url: `${api}/statuses/{sha}`,
  subscribers_url: `${api}/subscribers`,
  subscription_url: `${api}/subscription`,
  tags_url: `${api}/tags`,
  teams_url: `${api}/teams`,
  trees_url: `${api}/git/trees{/sha}`,
});

/** `repository` as embedded in pull requests; `permissions` only when the caller is a user. */
export function repository(
  repo: RepoRecord,
  urls: Urls,
  permissions?: { push: boolean; admin: boolean },
) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const html = `${urls.html}/${fullName(repo)}`;
  const open = [...repo.pulls.values()].filter((p) => p.state === 'open').length;
  const host = new URL(urls.html).host;
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: fullName(repo),
    owner: simpleUser(repo.owner, urls),
    private: repo.private,
    html_url: html,
    description: null,
    fork: false,
    url: api,
    ...repoUrlTemplates(api),
    clone_url: `${html}.git`,
    git_url: `git://${host}/${fullName(repo)}.git`,
    ssh_url: `git@${host}:${fullName(repo)}.git`,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: 'MDX',
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    size: 0,
    default_branch: repo.defaultBranch,
    open_issues: open,
    open_issues_count: open,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? 'private' : 'public',
    license: null,
    pushed_at: repo.createdAt,
    created_at: repo.createdAt,
    updated_at: repo.createdAt,
    allow_merge_commit: true,
    allow_squash_merge: true,
    allow_rebase_merge: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_forking: true,
    web_commit_signoff_required: false,
    ...(permissions && {
      permissions: {
        admin: permissions.admin,
        maintain: permissions.admin,
        push: permissions.push,
        triage: permissions.push,
        pull: true,
      },
    }),
  };
}

/** `full-repository`, the body of GET /repos/{owner}/{repo}. */
export const fullRepository = (
  repo: RepoRecord,
  urls: Urls,
  permissions?: { push: boolean; admin: boolean },
) => ({
  ...repository(repo, urls, permissions),
  network_count: 0,
  subscribers_count: 0,
});

export function gitRef(repo: RepoRecord, branch: string, urls: Urls) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const sha = repo.branches.get(branch)!;
  return {
    ref: `refs/heads/${branch}`,
    node_id: nodeId('Ref', `${fullName(repo)}:${branch}`),
    url: `${api}/git/refs/heads/${branch}`,
    object: { type: 'commit', sha, url: `${api}/git/commits/${sha}` },
  };
}

export function gitCommit(repo: RepoRecord, commit: GitCommit, urls: Urls) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  return {
    sha: commit.sha,
    node_id: nodeId('Commit', commit.sha),
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `${urls.html}/${fullName(repo)}/commit/${commit.sha}`,
    author: commit.author,
    committer: commit.committer,
    message: commit.message,
    tree: { sha: commit.treeSha, url: `${api}/git/trees/${commit.treeSha}` },
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/git/commits/${sha}`,
      html_url: `${urls.html}/${fullName(repo)}/commit/${sha}`,
    })),
    verification: {
      verified: false,
      reason: 'unsigned',
      payload: null,
      signature: null,
      verified_at: null,
    },
  };
}

/** `branch-with-protection`, the body of GET /repos/{owner}/{repo}/branches/{branch}. */
export function branchWithProtection(repo: RepoRecord, branch: string, urls: Urls) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const commit = repo.git.commits.get(repo.branches.get(branch)!)!;
  const isProtected = repo.protectedBranches.has(branch);
  const user = (login: string) => simpleUser(login, urls);
  return {
    name: branch,
    commit: {
      url: `${api}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: nodeId('Commit', commit.sha),
      html_url: `${urls.html}/${fullName(repo)}/commit/${commit.sha}`,
      comments_url: `${api}/commits/${commit.sha}/comments`,
      commit: {
        url: `${api}/git/commits/${commit.sha}`,
        author: commit.author,
        committer: commit.committer,
        message: commit.message,
        comment_count: 0,
        tree: { sha: commit.treeSha, url: `${api}/git/trees/${commit.treeSha}` },
      },
      author: user(repo.owner),
      committer: user(repo.owner),
      parents: commit.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}` })),
    },
    _links: {
      html: `${urls.html}/${fullName(repo)}/tree/${branch}`,
      self: `${api}/branches/${branch}`,
    },
    protected: isProtected,
    protection: {
      enabled: isProtected,
      required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
    },
    protection_url: `${api}/branches/${branch}/protection`,
  };
}

export function contentFile(
  repo: RepoRecord,
  path: string,
  ref: string,
  file: { sha: string; content: Buffer },
  urls: Urls,
) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const html = `${urls.html}/${fullName(repo)}/blob/${ref}/${path}`;
  const tooLarge = file.content.length > 1024 * 1024; // GitHub omits content above 1 MB
  return {
    type: 'file',
    encoding: tooLarge ? 'none' : 'base64',
    size: file.content.length,
    name: path.split('/').pop()!,
    path,
    content: tooLarge ? '' : file.content.toString('base64').replace(/.{60}/g, '$&\n'),
    sha: file.sha,
    url: `${api}/contents/${path}?ref=${ref}`,
    git_url: `${api}/git/blobs/${file.sha}`,
    html_url: html,
    download_url: `${urls.html}/raw/${fullName(repo)}/${ref}/${path}`,
    _links: {
      git: `${api}/git/blobs/${file.sha}`,
      html,
      self: `${api}/contents/${path}?ref=${ref}`,
    },
  };
}

function pullLinks(repo: RepoRecord, pull: PullRequestRecord, urls: Urls) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const html = `${urls.html}/${fullName(repo)}/pull/${pull.number}`;
  return {
    url: `${api}/pulls/${pull.number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pull.number}`,
    commits_url: `${api}/pulls/${pull.number}/commits`,
    review_comments_url: `${api}/pulls/${pull.number}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pull.number}/comments`,
    statuses_url: `${api}/statuses/${pullHeadSha(repo, pull)}`,
  };
}

/** `pull-request-simple`, an item of GET /repos/{owner}/{repo}/pulls. */
export function pullRequestSimple(repo: RepoRecord, pull: PullRequestRecord, urls: Urls) {
  const links = pullLinks(repo, pull, urls);
  const end = (ref: string, sha: string) => ({
    label: `${repo.owner}:${ref}`,
    ref,
    sha,
    user: simpleUser(repo.owner, urls),
    repo: repository(repo, urls),
  });
  const link = (href: string) => ({ href });
  return {
    ...links,
    id: pull.id,
    node_id: nodeId('PullRequest', pull.id),
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: simpleUser(pull.author, urls),
    body: pull.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    draft: false,
    head: end(pull.head, pullHeadSha(repo, pull)),
    base: end(pull.base, repo.branches.get(pull.base) ?? ''),
    _links: {
      self: link(links.url),
      html: link(links.html_url),
      issue: link(links.issue_url),
      comments: link(links.comments_url),
      review_comments: link(links.review_comments_url),
      review_comment: link(links.review_comment_url),
      commits: link(links.commits_url),
      statuses: link(links.statuses_url),
    },
    author_association: pull.author === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
    auto_merge: null,
  };
}

/** `pull-request`, the body of GET /repos/{owner}/{repo}/pulls/{number} and of its creation. */
export function pullRequest(repo: RepoRecord, pull: PullRequestRecord, urls: Urls) {
  return {
    ...pullRequestSimple(repo, pull, urls),
    merged: pull.merged,
    mergeable: pull.state === 'open' ? true : null,
    rebaseable: pull.state === 'open' ? true : null,
    mergeable_state: pull.state === 'open' ? 'clean' : 'unknown',
    merged_by: pull.mergedBy ? simpleUser(pull.mergedBy, urls) : null,
    comments: repo.comments.filter((c) => c.issueNumber === pull.number).length,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 1,
    additions: 1,
    deletions: 0,
    changed_files: 1,
  };
}

export function issueComment(repo: RepoRecord, comment: CommentRecord, urls: Urls) {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  return {
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${urls.html}/${fullName(repo)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: simpleUser(comment.author, urls),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    issue_url: `${api}/issues/${comment.issueNumber}`,
    author_association: comment.author === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
  };
}
