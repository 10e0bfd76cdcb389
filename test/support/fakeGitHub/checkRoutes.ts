import { createHash } from 'node:crypto';
import { repository, simpleUser, type Urls } from './objects.ts';
import { notFound, repoPath, type Route } from './route.ts';
import {
  fullName,
  type CheckRunRecord,
  type DeploymentRecord,
  type RepoRecord,
  type StatusRecord,
} from './state.ts';

/**
 * What a site's CI reports on a commit, read back: check runs and their annotations, the combined
 * commit status, deployments and their statuses, and the GitHub Actions runs and jobs (the check
 * runs that belong to a workflow). Fine-grained personal access tokens cannot hold `checks`, so
 * they get the 403 GitHub answers on check runs and read the Actions API instead.
 */

const at = (repo: RepoRecord, rest: string, urls: Urls) =>
  `${urls.api}/repos/${fullName(repo)}${rest}`;

const ACTIONS_APP = {
  id: 15368,
  slug: 'github-actions',
  node_id: 'MDM6QXBwMTUzNjg=',
  name: 'GitHub Actions',
  description: 'Automate your workflow from idea to production',
  external_url: 'https://help.github.com/en/actions',
  html_url: 'https://github.com/apps/github-actions',
  created_at: '2018-07-30T09:30:17Z',
  updated_at: '2024-04-10T20:33:16Z',
  permissions: { actions: 'write', checks: 'write', statuses: 'write' },
  events: ['check_run', 'check_suite', 'push', 'status'],
};

const CI_APP = {
  ...ACTIONS_APP,
  id: 9426,
  slug: 'site-ci',
  node_id: 'MDM6QXBwOTQyNg==',
  name: 'Site CI',
};

/** Workflow runs are not stored: one per workflow named by the commit's check runs, with a stable id. */
const runIdOf = (sha: string, workflow: string) =>
  Number.parseInt(createHash('sha256').update(`${sha}:${workflow}`).digest('hex').slice(0, 8), 16);

export function checkRunJson(repo: RepoRecord, run: CheckRunRecord, urls: Urls) {
  const html = `${urls.html}/${fullName(repo)}`;
  const app = run.workflow ? ACTIONS_APP : CI_APP;
  return {
    id: run.id,
    node_id: `CR_${run.id}`,
    head_sha: run.sha,
    external_id: '',
    name: run.name,
    url: at(repo, `/check-runs/${run.id}`, urls),
    html_url: `${html}/runs/${run.id}`,
    details_url: run.detailsUrl ?? `${html}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.title,
      summary: run.summary,
      text: null,
      annotations_count: run.annotations.length,
      annotations_url: at(repo, `/check-runs/${run.id}/annotations`, urls),
    },
    check_suite: { id: run.workflow ? runIdOf(run.sha, run.workflow) : run.id + 100_000 },
    app: { ...app, owner: simpleUser('github', urls) },
    pull_requests: [],
  };
}

function statusJson(repo: RepoRecord, status: StatusRecord, urls: Urls) {
  return {
    url: at(repo, `/statuses/${status.sha}`, urls),
    avatar_url: `${urls.html}/${status.creator}.png`,
    id: status.id,
    node_id: `SC_${status.id}`,
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: status.createdAt,
    updated_at: status.createdAt,
  };
}

function deploymentJson(repo: RepoRecord, deployment: DeploymentRecord, urls: Urls) {
  const url = at(repo, `/deployments/${deployment.id}`, urls);
  return {
    url,
    id: deployment.id,
    node_id: `DE_${deployment.id}`,
    sha: deployment.sha,
    ref: deployment.ref,
    task: 'deploy',
    payload: {},
    original_environment: deployment.environment,
    environment: deployment.environment,
    description: null,
    creator: simpleUser(deployment.creator, urls),
    created_at: deployment.createdAt,
    updated_at: deployment.createdAt,
    statuses_url: `${url}/statuses`,
    repository_url: at(repo, '', urls),
    transient_environment: true,
    production_environment: false,
  };
}

/** The newest status per context, newest first, as GitHub combines them. */
function latestStatuses(repo: RepoRecord, sha: string): StatusRecord[] {
  const byContext = new Map<string, StatusRecord>();
  for (const status of repo.statuses.filter((s) => s.sha === sha))
    byContext.set(status.context, status);
  return [...byContext.values()].reverse();
}

function combinedState(statuses: StatusRecord[]): string {
  if (statuses.some((s) => s.state === 'failure' || s.state === 'error')) return 'failure';
  if (statuses.length === 0 || statuses.some((s) => s.state === 'pending')) return 'pending';
  return 'success';
}

const resolveSha = (repo: RepoRecord, ref: string) => repo.branches.get(ref) ?? ref;

export const checkRoutes: Route[] = [
  {
    operationId: 'checks/list-for-ref',
    method: 'GET',
    pattern: repoPath('/commits/(?<ref>[^/]+)/check-runs'),
    permission: [['checks', 'read']],
    handle: (ctx) => {
      const sha = resolveSha(ctx.repo, ctx.params.ref);
      const runs = (ctx.repo.checkRuns ?? []).filter((run) => run.sha === sha);
      return {
        status: 200,
        body: {
          total_count: runs.length,
          check_runs: runs.map((run) => checkRunJson(ctx.repo, run, ctx.urls)),
        },
      };
    },
  },
  {
    operationId: 'checks/list-annotations',
    method: 'GET',
    pattern: repoPath('/check-runs/(?<id>\\d+)/annotations'),
    permission: [['checks', 'read']],
    handle: (ctx) => {
      const run = (ctx.repo.checkRuns ?? []).find((r) => r.id === Number(ctx.params.id));
      if (!run) throw notFound();
      const html = `${ctx.urls.html}/${fullName(ctx.repo)}`;
      return {
        status: 200,
        body: run.annotations.map((a) => ({
          path: a.path,
          blob_href: `${html}/blob/${run.sha}/${a.path}`,
          start_line: a.startLine,
          end_line: a.startLine,
          start_column: null,
          end_column: null,
          annotation_level: a.level,
          title: a.title,
          message: a.message,
          raw_details: null,
        })),
      };
    },
  },
  {
    operationId: 'repos/get-combined-status-for-ref',
    method: 'GET',
    pattern: repoPath('/commits/(?<ref>[^/]+)/status'),
    permission: [['statuses', 'read']],
    handle: (ctx) => {
      const sha = resolveSha(ctx.repo, ctx.params.ref);
      const statuses = latestStatuses(ctx.repo, sha);
      return {
        status: 200,
        body: {
          state: combinedState(statuses),
          sha,
          total_count: statuses.length,
          statuses: statuses.map((status) => statusJson(ctx.repo, status, ctx.urls)),
          repository: repository(ctx.repo, ctx.urls),
          commit_url: at(ctx.repo, `/commits/${sha}`, ctx.urls),
          url: at(ctx.repo, `/commits/${sha}/status`, ctx.urls),
        },
      };
    },
  },
  {
    operationId: 'repos/list-deployments',
    method: 'GET',
    pattern: repoPath('/deployments'),
    permission: [['deployments', 'read']],
    handle: (ctx) => {
      const sha = ctx.query.get('sha');
      const found = (ctx.repo.deployments ?? []).filter((d) => !sha || d.sha === sha).reverse();
      return { status: 200, body: found.map((d) => deploymentJson(ctx.repo, d, ctx.urls)) };
    },
  },
  {
    operationId: 'repos/list-deployment-statuses',
    method: 'GET',
    pattern: repoPath('/deployments/(?<id>\\d+)/statuses'),
    permission: [['deployments', 'read']],
    handle: (ctx) => {
      const deployment = (ctx.repo.deployments ?? []).find((d) => d.id === Number(ctx.params.id));
      if (!deployment) throw notFound();
      const url = at(ctx.repo, `/deployments/${deployment.id}`, ctx.urls);
      return {
        status: 200,
        body: [...deployment.statuses].reverse().map((s) => ({
          url: `${url}/statuses/${s.id}`,
          id: s.id,
          node_id: `DES_${s.id}`,
          state: s.state,
          creator: simpleUser(deployment.creator, ctx.urls),
          description: s.description,
          environment: deployment.environment,
          target_url: s.environmentUrl || `${ctx.urls.html}/${fullName(ctx.repo)}/deployments`,
          created_at: s.createdAt,
          updated_at: s.createdAt,
          deployment_url: url,
          repository_url: at(ctx.repo, '', ctx.urls),
          ...(s.environmentUrl ? { environment_url: s.environmentUrl } : {}),
        })),
      };
    },
  },
  {
    operationId: 'actions/list-workflow-runs-for-repo',
    method: 'GET',
    pattern: repoPath('/actions/runs'),
    permission: [['actions', 'read']],
    handle: (ctx) => {
      const sha = ctx.query.get('head_sha');
      const runs = (ctx.repo.checkRuns ?? []).filter((r) => r.workflow && (!sha || r.sha === sha));
      const workflows = [...new Set(runs.map((r) => `${r.sha}\n${r.workflow}`))].map((key) => {
        const [runSha, workflow] = key.split('\n');
        const jobs = runs.filter((r) => r.sha === runSha && r.workflow === workflow);
        return workflowRunJson(ctx.repo, runSha, workflow, jobs, ctx.urls);
      });
      return { status: 200, body: { total_count: workflows.length, workflow_runs: workflows } };
    },
  },
  {
    operationId: 'actions/list-jobs-for-workflow-run',
    method: 'GET',
    pattern: repoPath('/actions/runs/(?<id>\\d+)/jobs'),
    permission: [['actions', 'read']],
    handle: (ctx) => {
      const id = Number(ctx.params.id);
      const jobs = (ctx.repo.checkRuns ?? []).filter(
        (r) => r.workflow && runIdOf(r.sha, r.workflow) === id,
      );
      const html = `${ctx.urls.html}/${fullName(ctx.repo)}`;
      return {
        status: 200,
        body: {
          total_count: jobs.length,
          jobs: jobs.map((job) => ({
            id: job.id,
            node_id: `J_${job.id}`,
            run_id: id,
            run_url: at(ctx.repo, `/actions/runs/${id}`, ctx.urls),
            head_sha: job.sha,
            workflow_name: job.workflow,
            head_branch: null,
            name: job.name,
            url: at(ctx.repo, `/actions/jobs/${job.id}`, ctx.urls),
            html_url: `${html}/actions/runs/${id}/job/${job.id}`,
            status: job.status,
            conclusion: job.conclusion,
            started_at: job.startedAt,
            completed_at: job.completedAt,
            check_run_url: at(ctx.repo, `/check-runs/${job.id}`, ctx.urls),
            labels: ['ubuntu-latest'],
            runner_id: null,
            runner_name: null,
            runner_group_id: null,
            runner_group_name: null,
            created_at: job.startedAt,
          })),
        },
      };
    },
  },
];

function workflowRunJson(
  repo: RepoRecord,
  sha: string,
  workflow: string,
  jobs: CheckRunRecord[],
  urls: Urls,
) {
  const id = runIdOf(sha, workflow);
  const api = at(repo, `/actions/runs/${id}`, urls);
  const done = jobs.every((j) => j.status === 'completed');
  const failed = jobs.some((j) => j.conclusion === 'failure');
  const started = jobs[0]?.startedAt ?? new Date(0).toISOString();
  return {
    id,
    name: workflow,
    node_id: `WFR_${id}`,
    head_branch: null,
    head_sha: sha,
    path: '.github/workflows/site.yml',
    display_title: workflow,
    run_number: 1,
    event: 'pull_request',
    status: done ? 'completed' : 'in_progress',
    conclusion: done ? (failed ? 'failure' : 'success') : null,
    workflow_id: 1,
    url: api,
    html_url: `${urls.html}/${fullName(repo)}/actions/runs/${id}`,
    pull_requests: [],
    created_at: started,
    updated_at: started,
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: at(repo, `/check-suites/${id}`, urls),
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    workflow_url: at(repo, '/actions/workflows/1', urls),
    head_commit: null,
    repository: repository(repo, urls),
    head_repository: repository(repo, urls),
  };
}
