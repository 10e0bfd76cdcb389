import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { eventually } from '../../support/eventually.ts';
import type { TestInkstream } from '../../support/inkstream.ts';
import {
  connectBody,
  integrationPath,
  OAUTH,
  PROPERTY,
  startGoogleAndProject,
  type Google,
} from './world.ts';

let google: Google;
let app: TestInkstream;
let projectId: string;

let world: Awaited<ReturnType<typeof startGoogleAndProject>>;

beforeAll(async () => {
  world = await startGoogleAndProject();
  ({ google, app, projectId } = world);
  // A published article, so that a sync asks Google (and can find the grant revoked).
  const topicId = (
    await app.api().post(`/projects/${projectId}/topics`, { title: 'Sourdough basics' })
  ).body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountIdForName('test'), articleId, 'merged');
});
afterAll(() => world.close());

const integrationsOfProject = async () =>
  (await app.api().get(`/projects/${projectId}`)).body.project.integrations;
const searchAnalyticsOfProject = (done: (value: any) => boolean, what: string) =>
  eventually(async () => (await integrationsOfProject()).searchAnalytics, done, { what });

test('GET /projects/:id shows the search-analytics connection, its state and last sync, never a credential', async () => {
  expect((await integrationsOfProject()).searchAnalytics).toBeNull();

  expect((await app.api().put(integrationPath(projectId), connectBody())).status).toBe(200);
  const connected = await searchAnalyticsOfProject(
    (value) => value?.lastSync?.status === 'completed',
    'the first sync in the project',
  );
  const detail = (await app.api().get(integrationPath(projectId))).body.searchAnalytics;
  expect(connected).toEqual({
    provider: 'google-search-console',
    property: PROPERTY,
    status: 'ok',
    credentials: 'oauth',
    lastSync: {
      id: detail.lastSync.id,
      status: 'completed',
      requestedAt: detail.lastSync.requestedAt,
      finishedAt: detail.lastSync.finishedAt,
    },
  });
  const body = JSON.stringify((await app.api().get(`/projects/${projectId}`)).body);
  for (const secret of [OAUTH.clientSecret, OAUTH.refreshToken]) expect(body).not.toContain(secret);
  expect((await app.api().get('/projects')).body.projects[0].integrations.searchAnalytics).toEqual(
    connected,
  );

  google.revokeRefreshToken(OAUTH.refreshToken);
  expect((await app.api().post(`${integrationPath(projectId)}/sync`)).status).toBe(202);
  const broken = await searchAnalyticsOfProject(
    (value) => value?.status === 'broken',
    'the broken connection in the project',
  );
  expect(broken.lastSync).toMatchObject({ status: 'broken', finishedAt: expect.any(String) });
  expect(broken.lastSync.id).not.toBe(connected.lastSync.id);

  expect((await app.api().delete(integrationPath(projectId))).status).toBe(204);
  expect((await integrationsOfProject()).searchAnalytics).toBeNull();
});
