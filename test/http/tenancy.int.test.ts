import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { allRoutes } from '../../src/app/features.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import {
  apiEventsAfter,
  idKind,
  isCovered,
  ownedResources,
  pathWith,
  routeKey,
  VALID_BODIES,
  type OwnedIds,
} from '../support/routeSamples.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

let app: TestInkstream;
let owner: OwnedIds;
let intruderKey: string;
beforeAll(async () => {
  app = await startInkstream();
  await stopPipeline(app);
  owner = await ownedResources(app, app.key, (articleId) =>
    advanceArticle(app.platform, accountIdForName('test'), articleId, 'draft'),
  );
  intruderKey = await app.newKey('intruder');
});
afterAll(async () => {
  await app.close();
});

const routesWithIds = allRoutes.filter((route) => isCovered(route) && idKind(route.path) !== null);

test.each(routesWithIds.map((route) => [routeKey(route), route] as const))(
  "%s: another account gets 404 for the owner's id and changes nothing",
  async (key, route) => {
    const head = await app.platform.eventStore.headPosition();
    const path = pathWith(route.path, owner[idKind(route.path)!]);
    const response = await app
      .api(intruderKey)
      .request(route.method.toUpperCase(), path, route.body ? VALID_BODIES[key] : undefined);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({
      code: 'not_found',
      message: expect.not.stringContaining('another account'),
    });
    expect(await apiEventsAfter(app, head)).toEqual([]);
  },
);

test('the owner can do what the intruder was refused: the 404s were about ownership, not the requests', async () => {
  const owned = app.api();
  expect((await owned.get(`/projects/${owner.projectId}`)).status).toBe(200);
  expect((await owned.get(`/topics/${owner.topicId}`)).status).toBe(200);
  expect(
    (
      await owned.post(
        `/articles/${owner.articleId}/revise`,
        VALID_BODIES['POST /articles/:id/revise'],
      )
    ).status,
  ).toBe(202);
  expect(
    (await owned.patch(`/topics/${owner.topicId}`, VALID_BODIES['PATCH /topics/:id'])).status,
  ).toBe(200);
});

test("the intruder's lists never show the owner's resources", async () => {
  const intruder = app.api(intruderKey);
  const {
    body: { project },
  } = await intruder.post('/projects', { name: 'Theirs', websiteUrl: 'https://theirs.example' });
  const projects = (await intruder.get('/projects')).body.projects.map((p: { id: string }) => p.id);
  expect(projects).toEqual([project.id]);
  expect((await intruder.get(`/projects/${project.id}/topics`)).body.topics).toEqual([]);
  expect((await intruder.get(`/projects/${project.id}/articles`)).body.articles).toEqual([]);
  for (const status of ['approved', 'written'])
    expect(
      (await intruder.get(`/projects/${project.id}/topics?status=${status}`)).body.topics,
    ).toEqual([]);
  expect(
    (await intruder.get(`/projects/${project.id}/articles?status=draft`)).body.articles,
  ).toEqual([]);
});

test('every endpoint with a body has a sample body here, so new endpoints join this test', () => {
  for (const route of allRoutes.filter((candidate) => isCovered(candidate) && candidate.body))
    expect(VALID_BODIES, routeKey(route)).toHaveProperty([routeKey(route)]);
});
