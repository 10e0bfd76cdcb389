import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppRegistry } from './fakeGitHub/apps.ts';
import { collaboratorRoutes } from './fakeGitHub/collaboratorRoutes.ts';
import {
  FailureScript,
  failureReply,
  type RateLimit,
  type ScriptedFailure,
} from './fakeGitHub/failures.ts';
import { GitStore, type GitCommit } from './fakeGitHub/gitStore.ts';
import { gitRoutes } from './fakeGitHub/gitRoutes.ts';
import { fullRepository, pullRequest, type Urls } from './fakeGitHub/objects.ts';
import { assertRestResponse } from './fakeGitHub/openapi.ts';
import { pullRoutes } from './fakeGitHub/pullRoutes.ts';
import { statusRoutes } from './fakeGitHub/statusRoutes.ts';
import { checkRoutes, checkRunJson } from './fakeGitHub/checkRoutes.ts';
import { HttpFailure, type Reply, type Route } from './fakeGitHub/route.ts';
import {
  allows,
  grantAll,
  type Access,
  type Actor,
  type Grant,
  type RepoRecord,
  type RepoRole,
  type StatusRecord,
  type CheckAnnotationRecord,
  type CheckRunRecord,
  type DeploymentRecord,
} from './fakeGitHub/state.ts';
import {
  closePullRequest,
  mergePullRequest,
  type PushedFile,
  pushCommit,
} from './fakeGitHub/userActions.ts';

/**
 * A local GitHub REST server for tests (node:http on 127.0.0.1). It keeps real repository state
 * (branches, content-addressed commits/trees/blobs, pull requests, comments), checks credentials
 * and fine-grained permissions like GitHub, can be told to fail, and validates every response it
 * sends against GitHub's OpenAPI description: a body that drifts from the real API throws in the
 * test (an uncaught ContractViolation) instead of passing silently.
 *
 *   const github = await FakeGitHub.start();
 *   github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# hi' } });
 *   github.addToken('ghp_test', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
 *   new Octokit({ baseUrl: github.baseUrl, auth: 'ghp_test' });
 *   …
 *   await github.close();
 */

export type { RateLimit, ScriptedFailure };

export type FakeGitHubOptions = {
  /** `/api/v3` serves the API the way GitHub Enterprise Server does. Default: at the root. */
  pathPrefix?: string;
  /** Base of `html_url`s. Default `https://github.com`. */
  htmlBaseUrl?: string;
  /** Milliseconds since the epoch; drives timestamps and rate-limit resets. Default Date.now. */
  nowMs?: () => number;
  /** Called with each response that breaks GitHub's OpenAPI description. Default: throw it uncaught, failing the test run. */
  onContractViolation?: (error: Error) => void;
};

export type LoggedRequest = {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  query: Record<string, string>;
  body: Record<string, unknown>;
  login: string | null;
};

export type RepositorySetup = {
  owner: string;
  name: string;
  defaultBranch?: string;
  private?: boolean;
  /** Committed as the first commit of the default branch; symbolic links and submodules too. */
  files?: Record<string, PushedFile>;
  protectedBranches?: string[];
  /** Entries a recursive tree read lists before it answers `truncated: true`. Default GitHub's 100,000. */
  treeListLimit?: number;
};

const routes: Route[] = [
  ...gitRoutes,
  ...pullRoutes,
  ...collaboratorRoutes,
  ...statusRoutes,
  ...checkRoutes,
];
const ACCESS_TOKENS = /^\/app\/installations\/(?<id>\d+)\/access_tokens$/;
const RATE_LIMIT = 5000;

export class FakeGitHub {
  /** Pass this to Octokit as `baseUrl`. */
  readonly baseUrl: string;
  readonly requests: LoggedRequest[] = [];
  /** Responses that broke GitHub's OpenAPI description, each also passed to `onContractViolation`. */
  readonly violations: Error[] = [];
  private readonly apps = new AppRegistry();
  private readonly server: Server;
  private readonly urls: Urls;
  private readonly prefix: string;
  private readonly nowMs: () => number;
  private readonly onContractViolation: (error: Error) => void;
  private readonly repos = new Map<string, RepoRecord>();
  private readonly tokens = new Map<string, Actor>();
  private readonly failures = new FailureScript();
  private nextRepoId = 1;

  private constructor(server: Server, options: FakeGitHubOptions) {
    this.server = server;
    this.prefix = options.pathPrefix ?? '';
    this.nowMs = options.nowMs ?? Date.now;
    this.onContractViolation =
      options.onContractViolation ??
      ((error) =>
        queueMicrotask(() => {
          throw error;
        }));
    const { port } = server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}${this.prefix}`;
    this.urls = { api: this.baseUrl, html: options.htmlBaseUrl ?? 'https://github.com' };
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new FakeGitHub(server, options);
    server.on('request', (req, res) => void fake.serve(req, res));
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  // ——— world setup ———

  addRepository(setup: RepositorySetup): RepoRecord {
    const repo: RepoRecord = {
      id: this.nextRepoId++,
      owner: setup.owner,
      name: setup.name,
      private: setup.private ?? true,
      defaultBranch: setup.defaultBranch ?? 'main',
      createdAt: this.nowIso(),
      branches: new Map(),
      protectedBranches: new Set(setup.protectedBranches),
      git: new GitStore(),
      pulls: new Map(),
      comments: [],
      statuses: [],
      nextNumber: 1,
      collaborators: new Map(),
      treeListLimit: setup.treeListLimit ?? 100_000,
    };
    this.repos.set(`${setup.owner}/${setup.name}`, repo);
    pushCommit(
      repo,
      repo.defaultBranch,
      {
        message: 'Initial commit',
        files: setup.files ?? { 'README.md': `# ${setup.name}\n` },
        author: setup.owner,
      },
      this.nowIso(),
    );
    return repo;
  }

  /** A personal access token acting as `login`, with `read`/`write` on everything or a fine-grained grant per repository. */
  addToken(
    token: string,
    input: { login: string; repositories: Record<string, Access | Grant> },
  ): void {
    const grants = new Map(
      Object.entries(input.repositories).map(([repo, g]) => [
        repo,
        typeof g === 'string' ? grantAll(g) : g,
      ]),
    );
    this.tokens.set(token, { login: input.login, id: 0, kind: 'user', grants });
  }

  /** A GitHub App (`publicKey` PEM verifies its JWTs) installed on `repositories` with `permissions`. */
  addAppInstallation(input: {
    appId: number;
    slug?: string;
    publicKey: string;
    installationId: number;
    repositories: string[];
    permissions: Grant;
  }): void {
    this.apps.apps.set(input.appId, {
      appId: input.appId,
      slug: input.slug ?? `app-${input.appId}`,
      publicKey: input.publicKey,
    });
    this.apps.installations.set(input.installationId, {
      installationId: input.installationId,
      appId: input.appId,
      repositories: input.repositories,
      permissions: input.permissions,
    });
  }

  /** Gives `login` a role on the repository, as its settings (Collaborators and teams) would. */
  addCollaborator(owner: string, name: string, login: string, role: RepoRole): void {
    this.repository(owner, name).collaborators.set(login, role);
  }

  /** The `author_association` GitHub puts on `login`'s comments in this repository. */
  associationOf(owner: string, name: string, login: string): 'OWNER' | 'COLLABORATOR' | 'NONE' {
    const repo = this.repository(owner, name);
    if (login === repo.owner) return 'OWNER';
    return repo.collaborators.has(login) ? 'COLLABORATOR' : 'NONE';
  }

  // ——— scripting and inspection ———

  /** The next `times` (default 1) calls of `operationId` (e.g. `git/update-ref`) answer `failure`. */
  failNext(operationId: string, failure: ScriptedFailure): void {
    this.failures.add(operationId, failure);
  }

  /** The next call of `operationId` hits GitHub's primary or secondary rate limit. */
  rateLimitNext(operationId: string, limit: RateLimit): void {
    this.failures.addRateLimit(operationId, limit, this.nowMs());
  }

  clearFailures(): void {
    this.failures.clear();
  }

  calls(operationId: string): LoggedRequest[] {
    return this.requests.filter((r) => r.operationId === operationId);
  }

  repository(owner: string, name: string): RepoRecord {
    const repo = this.repos.get(`${owner}/${name}`);
    if (!repo) throw new Error(`fake GitHub has no repository ${owner}/${name}`);
    return repo;
  }

  /** The commit statuses posted on `sha`, oldest first. */
  statusesOf(owner: string, name: string, sha: string): StatusRecord[] {
    return this.repository(owner, name).statuses.filter((status) => status.sha === sha);
  }

  /** First-parent history of a branch, newest first. */
  branchHistory(owner: string, name: string, branch: string): GitCommit[] {
    const repo = this.repository(owner, name);
    const head = repo.branches.get(branch);
    return head ? repo.git.history(head) : [];
  }

  /** A file's bytes at a branch or commit, or null. */
  fileAt(owner: string, name: string, ref: string, path: string): Buffer | null {
    const repo = this.repository(owner, name);
    return repo.git.readFile(repo.branches.get(ref) ?? ref, path)?.content ?? null;
  }

  // ——— what people do on github.com ———

  pushCommit(
    owner: string,
    name: string,
    branch: string,
    input: { message: string; files: Record<string, PushedFile>; author?: string },
  ): GitCommit {
    return pushCommit(
      this.repository(owner, name),
      branch,
      { author: owner, ...input },
      this.nowIso(),
    );
  }

  mergePullRequest(owner: string, name: string, number: number, by = owner): GitCommit {
    const repo = this.repository(owner, name);
    return mergePullRequest(repo, this.pull(repo, number), by, this.nowIso());
  }

  closePullRequest(owner: string, name: string, number: number): void {
    const repo = this.repository(owner, name);
    closePullRequest(repo, this.pull(repo, number), this.nowIso());
  }

  /** The REST `pull-request` and `full-repository` JSON, e.g. to build webhook payloads from. */
  pullRequestJson(owner: string, name: string, number: number): ReturnType<typeof pullRequest> {
    const repo = this.repository(owner, name);
    return pullRequest(repo, this.pull(repo, number), this.urls);
  }

  repositoryJson(owner: string, name: string): ReturnType<typeof fullRepository> {
    return fullRepository(this.repository(owner, name), this.urls);
  }

  private pull(repo: RepoRecord, number: number) {
    const pull = repo.pulls.get(number);
    if (!pull)
      throw new Error(`fake GitHub has no pull request #${number} in ${repo.owner}/${repo.name}`);
    return pull;
  }

  // ——— what the site's CI reports on a commit ———

  /**
   * A check run on `sha` as a CI app reports it: created, or updated when one of that name is
   * there. `workflow` makes it a GitHub Actions job of that workflow (the Actions API lists it).
   */
  reportCheckRun(
    owner: string,
    name: string,
    input: {
      sha: string;
      name: string;
      status: CheckRunRecord['status'];
      conclusion?: CheckRunRecord['conclusion'];
      title?: string | null;
      summary?: string | null;
      detailsUrl?: string | null;
      workflow?: string | null;
      annotations?: Array<
        Omit<CheckAnnotationRecord, 'level' | 'title'> & Partial<CheckAnnotationRecord>
      >;
    },
  ): CheckRunRecord {
    const repo = this.repository(owner, name);
    repo.checkRuns ??= [];
    const now = this.nowIso();
    const existing = repo.checkRuns.find((run) => run.sha === input.sha && run.name === input.name);
    const run: CheckRunRecord = {
      id: existing?.id ?? 4_000 + repo.checkRuns.length + 1,
      sha: input.sha,
      name: input.name,
      status: input.status,
      conclusion: input.status === 'completed' ? (input.conclusion ?? 'success') : null,
      title: input.title ?? null,
      summary: input.summary ?? null,
      detailsUrl: input.detailsUrl ?? null,
      workflow: input.workflow ?? existing?.workflow ?? null,
      annotations: (input.annotations ?? []).map((a) => ({
        level: 'failure',
        title: null,
        ...a,
      })),
      startedAt: existing?.startedAt ?? now,
      completedAt: input.status === 'completed' ? now : null,
    };
    if (existing) repo.checkRuns[repo.checkRuns.indexOf(existing)] = run;
    else repo.checkRuns.push(run);
    return run;
  }

  /** A commit status posted by a CI or a host (Vercel, Netlify) on `sha`. */
  reportStatus(
    owner: string,
    name: string,
    input: Pick<StatusRecord, 'sha' | 'state' | 'context'> & {
      description?: string | null;
      targetUrl?: string | null;
      creator?: string;
    },
  ): void {
    const repo = this.repository(owner, name);
    repo.statuses.push({
      id: repo.statuses.length + 1,
      description: null,
      targetUrl: null,
      creator: 'vercel',
      ...input,
      createdAt: this.nowIso(),
    });
  }

  /** A deployment of `sha` to `environment` (made if it is not there) gets a status; `environmentUrl` is the preview. */
  reportDeployment(
    owner: string,
    name: string,
    input: {
      sha: string;
      environment: string;
      state: DeploymentRecord['statuses'][number]['state'];
      environmentUrl?: string;
    },
  ): void {
    const repo = this.repository(owner, name);
    repo.deployments ??= [];
    let deployment = repo.deployments.find(
      (d) => d.sha === input.sha && d.environment === input.environment,
    );
    if (!deployment) {
      deployment = {
        id: 7_000 + repo.deployments.length + 1,
        sha: input.sha,
        ref: input.sha,
        environment: input.environment,
        creator: 'vercel',
        createdAt: this.nowIso(),
        statuses: [],
      };
      repo.deployments.push(deployment);
    }
    deployment.statuses.push({
      id: 9_000 + deployment.statuses.length + 1,
      state: input.state,
      environmentUrl: input.environmentUrl ?? '',
      description: '',
      createdAt: this.nowIso(),
    });
  }

  /** The REST `check-run` JSON of a reported run, e.g. to build a `check_run` webhook from. */
  checkRunJson(owner: string, name: string, run: CheckRunRecord): ReturnType<typeof checkRunJson> {
    return checkRunJson(this.repository(owner, name), run, this.urls);
  }

  // ——— the HTTP side ———

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawPath = url.pathname.startsWith(this.prefix)
      ? url.pathname.slice(this.prefix.length)
      : '';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = null;
    }
    const log: LoggedRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(rawPath),
      operationId: null,
      status: 0,
      query: Object.fromEntries(url.searchParams),
      body: body ?? {},
      login: null,
    };
    this.requests.push(log);

    const accessTokens = req.method === 'POST' ? ACCESS_TOKENS.exec(rawPath) : null;
    const route = routes.find((r) => r.method === req.method && r.pattern.test(rawPath));
    log.operationId = accessTokens
      ? 'apps/create-installation-access-token'
      : (route?.operationId ?? null);
    if (!log.operationId) {
      return this.violate(
        res,
        log,
        new Error(
          `fake GitHub has no route for ${req.method} ${rawPath}; add it with its OpenAPI operationId`,
        ),
      );
    }
    let reply: Reply;
    try {
      const scripted = this.failures.take(log.operationId);
      if (scripted && !scripted.afterApplying) {
        reply = failureReply(scripted);
      } else if (body === null) {
        reply = new HttpFailure(400, 'Problems parsing JSON').reply;
      } else {
        reply = this.handle(req, url, rawPath, body, log, route, accessTokens);
        if (scripted) reply = failureReply(scripted);
      }
      assertRestResponse(log.operationId, reply.status, reply.body ?? {});
    } catch (error) {
      return this.violate(res, log, error as Error);
    }
    log.status = reply.status;
    this.send(res, reply);
  }

  private handle(
    req: IncomingMessage,
    url: URL,
    rawPath: string,
    body: Record<string, unknown>,
    log: LoggedRequest,
    route: Route | undefined,
    accessTokens: RegExpExecArray | null,
  ): Reply {
    try {
      const [scheme, credential] = (req.headers.authorization ?? '').split(' ');
      if (accessTokens) {
        if (scheme?.toLowerCase() !== 'bearer')
          throw new HttpFailure(401, 'A JSON web token could not be decoded');
        const minted = this.apps.mint(
          this.apps.authenticate(credential),
          Number(accessTokens.groups!.id),
          this.nowMs(),
        );
        this.tokens.set(minted.token, minted.actor);
        log.login = `app ${minted.actor.login}`;
        return { status: 201, body: minted.body };
      }
      const actor = credential ? this.tokens.get(credential) : undefined;
      if (!actor)
        throw new HttpFailure(401, credential ? 'Bad credentials' : 'Requires authentication');
      log.login = actor.login;
      const params = Object.fromEntries(
        Object.entries(route!.pattern.exec(rawPath)!.groups ?? {}).map(([k, v]) => [
          k,
          decodeURIComponent(v),
        ]),
      );
      const repo = this.repos.get(`${params.owner}/${params.repo}`);
      const grant = repo && actor.grants.get(`${repo.owner}/${repo.name}`);
      if (!repo || !grant) throw new HttpFailure(404, 'Not Found');
      const alternatives = route!.permission ?? [];
      if (
        alternatives.length &&
        !alternatives.some(([name, access]) => allows(grant, name, access))
      ) {
        const accepted = alternatives.map(([name, access]) => `${name}=${access}`).join('; ');
        const by = actor.kind === 'user' ? 'personal access token' : 'integration';
        throw new HttpFailure(
          403,
          `Resource not accessible by ${by}`,
          {},
          { 'x-accepted-github-permissions': accepted },
        );
      }
      return route!.handle({
        params,
        query: url.searchParams,
        body,
        headers: req.headers,
        actor,
        repo,
        urls: this.urls,
        nowIso: () => this.nowIso(),
      });
    } catch (error) {
      if (error instanceof HttpFailure) return error.reply;
      throw error;
    }
  }

  private send(res: ServerResponse, reply: Reply): void {
    const used = this.requests.length;
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(RATE_LIMIT - used, 0)),
      'x-ratelimit-reset': String(Math.ceil(this.nowMs() / 1000) + 3600),
      'x-ratelimit-used': String(used),
      'x-ratelimit-resource': 'core',
      'x-github-request-id': `FAKE:${used}`,
      ...reply.headers,
    });
    res.end(JSON.stringify(reply.body ?? {}));
  }

  /** Answers 500 so the client does not hang, then reports (by default: throws where the test runner sees it). */
  private violate(res: ServerResponse, log: LoggedRequest, error: Error): void {
    this.violations.push(error);
    log.status = 500;
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ message: `FAKE GITHUB CONTRACT VIOLATION: ${error.message}` }));
    this.onContractViolation(error);
  }
}
