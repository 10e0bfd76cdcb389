import { expect } from 'vitest';
import type { PlanName } from '../../../src/domain/accounts/plans.ts';
import type { Clock } from '../../../src/core/clock.ts';
import { reconnectAs } from '../../support/contentProfile.ts';
import { eventually } from '../../support/eventually.ts';
import { FakeGitHub } from '../../support/fakeGitHub.ts';
import { signWebhook, type SignedWebhook } from '../../support/githubWebhooks.ts';
import {
  type ApiClient,
  type ApiResponse,
  startInkstream,
  type TestInkstream,
} from '../../support/inkstream.ts';
import { startTestSite, type TestSite, type TestSiteOptions } from '../../support/testSite.ts';

/**
 * The world of a publishing test: a fake GitHub holding `acme/site` (main, with one published
 * article, and `octo` as a write collaborator), tokens of each kind, the test company site to crawl, and a real Inkstream whose
 * GitHub API base URL is the fake.
 */
export const EXISTING_POST = 'content/blog/welcome.mdx';

export type World = Awaited<ReturnType<typeof startWorld>>;

export async function startWorld(
  options: {
    clock?: Clock;
    plan?: PlanName;
    env?: Record<string, string>;
    sitePages?: TestSiteOptions['pages'];
    /**
     * `legacy` (the default): connections publish Inkstream's fixed shape, as connections made
     * before repositories were learned do, so the publishing flows are tested on a known file;
     * `learn`: they learn the repository's content profile and publish in its shape.
     */
    profiles?: 'legacy' | 'learn';
  } = {},
) {
  const github = await FakeGitHub.start(
    options.clock ? { nowMs: () => options.clock!.nowMs() } : {},
  );
  github.addRepository({
    owner: 'acme',
    name: 'site',
    files: {
      'README.md': '# Acme site\n',
      [EXISTING_POST]: '---\ntitle: Welcome\n---\n\nHello.\n',
    },
  });
  github.addRepository({
    owner: 'acme',
    name: 'locked',
    files: { 'README.md': '# Locked\n' },
    protectedBranches: ['main'],
  });
  github.addToken('ghp_writer', {
    login: 'inkbot',
    repositories: { 'acme/site': 'write', 'acme/locked': 'write' },
  });
  github.addToken('ghp_reader', { login: 'reader', repositories: { 'acme/site': 'read' } });
  // Comments steer an article only from people with write access; `octo` is the site's editor.
  github.addCollaborator('acme', 'site', 'octo', 'write');
  const site = await startTestSite({ pages: options.sitePages });
  const app = await startInkstream({
    env: { GITHUB_API_URL: github.baseUrl, ...options.env },
    clock: options.clock,
    plan: options.plan,
  });
  const api = app.api();

  return {
    github,
    site,
    app,
    api,
    async connect(
      projectId: string,
      body: Record<string, unknown> = {},
      client: ApiClient = api,
    ): Promise<ApiResponse> {
      const connected = await client.put(`/projects/${projectId}/integrations/github`, {
        repository: 'acme/site',
        baseBranch: 'main',
        contentDirectory: 'content/blog',
        credentials: { type: 'token', token: 'ghp_writer' },
        ...body,
      });
      if (connected.status === 200 && (options.profiles ?? 'legacy') === 'legacy')
        await reconnectAs(app.platform, projectId, 'legacy');
      return connected;
    },
    async project(client: ApiClient = api): Promise<string> {
      const created = await client.post('/projects', {
        name: 'Crumb & Co.',
        websiteUrl: site.origin,
      });
      expect(created.status).toBe(201);
      return created.body.project.id as string;
    },
    /** A topic written by the pipeline (offline writer) up to its draft. */
    async draft(
      projectId: string,
      title = 'How bakeries cut food waste',
      client: ApiClient = api,
    ): Promise<string> {
      const topic = await client.post(`/projects/${projectId}/topics`, {
        title,
        keyword: 'bakery food waste',
      });
      expect(topic.status).toBe(201);
      const written = await client.post(`/topics/${topic.body.topic.id}/write`);
      expect(written.status).toBe(201);
      const articleId = written.body.article.id as string;
      await articleIn(client, articleId, ['draft']);
      return articleId;
    },
    /** A connected project whose drafted article was approved and has its pull request open. */
    async pullRequestOpen(): Promise<{
      projectId: string;
      secret: string;
      articleId: string;
      slug: string;
    }> {
      const projectId = await this.project();
      const secret = (await this.connect(projectId)).body.github.webhook.secret as string;
      const articleId = await this.draft(projectId);
      expect((await api.post(`/articles/${articleId}/approve`)).status).toBe(202);
      const { slug } = await articleIn(api, articleId, ['pr_open']);
      return { projectId, secret, articleId, slug };
    },
    /** POSTs a signed GitHub webhook delivery to Inkstream's receiver. */
    async deliver(delivery: SignedWebhook): Promise<{ status: number; body: any }> {
      const response = await fetch(`${app.url}/api/v1/integrations/github/events`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      return { status: response.status, body: await response.json() };
    },
    sign: signWebhook,
    async close() {
      await app.close();
      await github.close();
      await site.close();
    },
  };
}

/** Waits for the article to reach one of `statuses` and returns it; fails early if it failed instead. */
export async function articleIn(
  client: ApiClient,
  articleId: string,
  statuses: string[],
  timeoutMs = 15_000,
): Promise<any> {
  const found = await eventually(
    async () => (await client.get(`/articles/${articleId}`)).body.article,
    (article) =>
      statuses.includes(article.status) ||
      (article.status === 'failed' && !statuses.includes('failed')),
    { timeoutMs, what: `article ${articleId} to be ${statuses.join(' or ')}` },
  );
  expect(found.status, JSON.stringify(found.failure)).toBeOneOf(statuses);
  return found;
}
