import { expect, test } from 'vitest';
import { useAcmeProject } from '../../support/acmeProject.ts';
import type { ApiResponse } from '../../support/inkstream.ts';

const acme = useAcmeProject({ pipeline: 'stopped' });

const createTopic = async (body: Record<string, unknown>) =>
  acme.app.api().post(`/projects/${acme.projectId}/topics`, body);

test('a topic added by hand starts approved, with the given fields and a default priority', async () => {
  const created = await createTopic({
    title: 'How to brew coffee',
    keyword: 'brew coffee',
    brief: 'For beginners',
  });
  expect(created.status).toBe(201);
  expect(created.body.topic).toMatchObject({
    projectId: acme.projectId,
    title: 'How to brew coffee',
    keyword: 'brew coffee',
    brief: 'For beginners',
    status: 'approved',
    scheduledFor: null,
    priority: 50,
    source: 'api',
    articleId: null,
  });
  expect(created.headers.get('location')).toBe(`/api/v1/topics/${created.body.topic.id}`);
  const read = await acme.app.api().get(`/topics/${created.body.topic.id}`);
  expect(read.body.topic).toEqual(created.body.topic);
});

test('a topic created with scheduledFor starts scheduled, normalised to UTC', async () => {
  const created = await createTopic({
    title: 'Spring menu',
    scheduledFor: '2030-03-01T10:00:00+02:00',
    priority: 80,
  });
  expect(created.status).toBe(201);
  expect(created.body.topic).toMatchObject({
    status: 'scheduled',
    scheduledFor: '2030-03-01T08:00:00.000Z',
    priority: 80,
  });
});

test('lists filter by status, page with limit and cursor, newest first', async () => {
  const { body: fresh } = await acme.app
    .api()
    .post('/projects', { name: 'Paging', websiteUrl: 'https://paging.example' });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(
      (await acme.app.api().post(`/projects/${fresh.project.id}/topics`, { title: `T${i}` })).body
        .topic.id,
    );
  await acme.app.api().patch(`/topics/${ids[1]}`, { status: 'rejected' });
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiResponse = await acme.app
      .api()
      .get(`/projects/${fresh.project.id}/topics?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    expect(page.body.topics.length).toBeLessThanOrEqual(2);
    seen.push(...page.body.topics.map((t: { id: string }) => t.id));
    cursor = page.body.nextCursor;
  } while (cursor);
  expect(seen).toEqual([...ids].reverse());
  const rejected = await acme.app.api().get(`/projects/${fresh.project.id}/topics?status=rejected`);
  expect(rejected.body.topics.map((t: { id: string }) => t.id)).toEqual([ids[1]]);
});

test('PATCH approves, rejects, schedules, reprioritises and edits along the state machine', async () => {
  const { body } = await createTopic({ title: 'Grinders' });
  const id = body.topic.id;
  const scheduled = await acme.app
    .api()
    .patch(`/topics/${id}`, { status: 'scheduled', scheduledFor: '2031-01-01T09:00:00Z' });
  expect(scheduled.status).toBe(200);
  expect(scheduled.body.topic).toMatchObject({
    status: 'scheduled',
    scheduledFor: '2031-01-01T09:00:00.000Z',
  });
  const moved = await acme.app.api().patch(`/topics/${id}`, {
    scheduledFor: '2031-02-01T09:00:00Z',
    priority: 3,
    title: 'Burr grinders',
    keyword: null,
  });
  expect(moved.body.topic).toMatchObject({
    status: 'scheduled',
    scheduledFor: '2031-02-01T09:00:00.000Z',
    priority: 3,
    title: 'Burr grinders',
    keyword: null,
  });
  const unscheduled = await acme.app.api().patch(`/topics/${id}`, { scheduledFor: null });
  expect(unscheduled.body.topic).toMatchObject({ status: 'approved', scheduledFor: null });
  const rejected = await acme.app.api().patch(`/topics/${id}`, { status: 'rejected' });
  expect(rejected.body.topic.status).toBe('rejected');
  const refused = await acme.app
    .api()
    .patch(`/topics/${id}`, { status: 'scheduled', scheduledFor: '2031-01-01T09:00:00Z' });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatchObject({
    code: 'invalid_state',
    message: expect.stringContaining('A rejected topic cannot become scheduled'),
  });
  const approved = await acme.app.api().patch(`/topics/${id}`, { status: 'approved' });
  expect(approved.body.topic.status).toBe('approved');
  expect((await acme.app.api().get(`/topics/${id}`)).body.topic).toEqual(approved.body.topic);
});

test('PATCH refuses contradictory or empty changes with field details', async () => {
  const { body } = await createTopic({ title: 'Kettles' });
  const empty = await acme.app.api().patch(`/topics/${body.topic.id}`, {});
  expect(empty.status).toBe(400);
  const contradictory = await acme.app.api().patch(`/topics/${body.topic.id}`, {
    status: 'approved',
    scheduledFor: '2031-01-01T00:00:00Z',
  });
  expect(contradictory.status).toBe(400);
  expect(contradictory.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.scheduledFor' }),
  ]);
  const noTime = await acme.app.api().patch(`/topics/${body.topic.id}`, { status: 'scheduled' });
  expect(noTime.status).toBe(400);
  expect(noTime.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.scheduledFor' }),
  ]);
  const badPriority = await acme.app.api().patch(`/topics/${body.topic.id}`, { priority: 101 });
  expect(badPriority.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.priority' }),
  ]);
});

test('PATCH refuses to schedule a topic in the past, on the field, and changes nothing', async () => {
  const { body } = await createTopic({ title: 'Milk frothers' });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  const past = await acme.app.api().patch(`/topics/${body.topic.id}`, {
    status: 'scheduled',
    scheduledFor: yesterday,
    priority: 90,
  });
  expect(past.status).toBe(400);
  expect(past.body.error).toMatchObject({
    code: 'validation_failed',
    message: expect.stringContaining('in the past'),
  });
  expect(past.body.error.details).toEqual([expect.objectContaining({ path: 'body.scheduledFor' })]);
  expect((await acme.app.api().get(`/topics/${body.topic.id}`)).body.topic).toMatchObject({
    status: 'approved',
    scheduledFor: null,
    priority: 50,
  });
});

test('writing a topic returns the queued article and marks the topic written, once', async () => {
  const { body } = await createTopic({
    title: 'Cold brew at home',
    keyword: 'cold brew',
    brief: 'Steps and ratios',
  });
  const written = await acme.app.api().post(`/topics/${body.topic.id}/write`);
  expect(written.status).toBe(201);
  expect(written.body.article).toMatchObject({
    projectId: acme.projectId,
    topicId: body.topic.id,
    status: 'queued',
    title: 'Cold brew at home',
    keyword: 'cold brew',
    version: 0,
    content: null,
    prUrl: null,
  });
  expect(written.body.article.id).toMatch(/^art_/);
  const topic = await acme.app.api().get(`/topics/${body.topic.id}`);
  expect(topic.body.topic).toMatchObject({ status: 'written', articleId: written.body.article.id });
  expect((await acme.app.api().get(`/articles/${written.body.article.id}`)).body.article).toEqual(
    written.body.article,
  );
  const again = await acme.app.api().post(`/topics/${body.topic.id}/write`);
  expect(again.status).toBe(409);
  expect(again.body.error.message).toContain(written.body.article.id);
  const reopen = await acme.app.api().patch(`/topics/${body.topic.id}`, { status: 'approved' });
  expect(reopen.status).toBe(409);
});

test('a rejected topic cannot be written until it is approved again', async () => {
  const { body } = await createTopic({ title: 'Decaf' });
  await acme.app.api().patch(`/topics/${body.topic.id}`, { status: 'rejected' });
  const refused = await acme.app.api().post(`/topics/${body.topic.id}/write`);
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toMatch(/rejected topic cannot be written; approve it first/);
  expect((await acme.app.api().get(`/topics/${body.topic.id}`)).body.topic.status).toBe('rejected');
});

test('suggest records a research run and refuses a second one while it runs', async () => {
  const first = await acme.app.api().post(`/projects/${acme.projectId}/topics/suggest`);
  expect(first.status).toBe(202);
  expect(first.body.run).toEqual({ id: expect.stringMatching(/^run_/), status: 'running' });
  const project = await acme.app.api().get(`/projects/${acme.projectId}`);
  expect(project.body.project.research).toMatchObject({
    runId: first.body.run.id,
    status: 'running',
  });
  const second = await acme.app.api().post(`/projects/${acme.projectId}/topics/suggest`);
  expect(second.status).toBe(409);
  expect(second.body.error.message).toContain(first.body.run.id);
});

test('unknown projects and topics are 404, and bad status filters are 400', async () => {
  expect((await acme.app.api().get('/projects/prj_00000000000000000000000000/topics')).status).toBe(
    404,
  );
  expect(
    (await acme.app.api().post('/projects/prj_00000000000000000000000000/topics', { title: 'x' }))
      .status,
  ).toBe(404);
  expect(
    (await acme.app.api().patch('/topics/tpc_00000000000000000000000000', { priority: 1 })).status,
  ).toBe(404);
  expect((await acme.app.api().post('/topics/not-an-id/write')).status).toBe(404);
  const badFilter = await acme.app.api().get(`/projects/${acme.projectId}/topics?status=done`);
  expect(badFilter.status).toBe(400);
  expect(badFilter.body.error.details[0].path).toBe('query.status');
  expect((await acme.app.api().get(`/projects/${acme.projectId}/topics?limit=0`)).status).toBe(400);
  expect((await acme.app.api().get(`/projects/${acme.projectId}/topics?limit=201`)).status).toBe(
    400,
  );
  expect((await acme.app.api().get(`/projects/${acme.projectId}/topics?cursor=!!`)).status).toBe(
    400,
  );
});
