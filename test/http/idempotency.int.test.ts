import { expect, test } from 'vitest';
import { useAcmeProject } from '../support/acmeProject.ts';

const acme = useAcmeProject({ pipeline: 'running' });

async function eventsOfType(type: string): Promise<number> {
  return (await acme.app.platform.eventStore.readAll({ maxCount: 100_000 })).filter(
    (event) => event.type === type,
  ).length;
}

test('the same key and body replay the first response, and the command is recorded once', async () => {
  const before = await eventsOfType('TopicCreated');
  const headers = { 'idempotency-key': 'create-topic-1' };
  const first = await acme.app
    .api()
    .post(`/projects/${acme.projectId}/topics`, { title: 'Once only' }, headers);
  const replay = await acme.app
    .api()
    .post(`/projects/${acme.projectId}/topics`, { title: 'Once only' }, headers);
  expect(first.status).toBe(201);
  expect(replay.status).toBe(201);
  expect(replay.body).toEqual(first.body);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(await eventsOfType('TopicCreated')).toBe(before + 1);
});

test('concurrent requests with one key do the work once', async () => {
  const before = await eventsOfType('TopicCreated');
  const headers = { 'idempotency-key': 'create-topic-concurrent' };
  const responses = await Promise.all(
    Array.from({ length: 5 }, () =>
      acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'Racing' }, headers),
    ),
  );
  expect(new Set(responses.map((response) => response.body.topic.id)).size).toBe(1);
  expect(await eventsOfType('TopicCreated')).toBe(before + 1);
});

test('the same key with another body, or on another endpoint, is 422', async () => {
  const headers = { 'idempotency-key': 'reused' };
  expect(
    (await acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'First' }, headers))
      .status,
  ).toBe(201);
  const otherBody = await acme.app
    .api()
    .post(`/projects/${acme.projectId}/topics`, { title: 'Second' }, headers);
  expect(otherBody.status).toBe(422);
  expect(otherBody.body.error).toMatchObject({
    code: 'idempotency_mismatch',
    message: expect.stringContaining('different request'),
  });
  const otherPath = await acme.app
    .api()
    .post(`/projects/${acme.projectId}/topics/suggest`, undefined, headers);
  expect(otherPath.status).toBe(422);
});

test('keys are per account: another account may use the same key for its own request', async () => {
  const other = acme.app.api(await acme.app.newKey('other'));
  const {
    body: { project },
  } = await other.post('/projects', { name: 'Theirs', websiteUrl: 'https://theirs.example' });
  const response = await other.post(
    `/projects/${project.id}/topics`,
    { title: 'First' },
    { 'idempotency-key': 'reused' },
  );
  expect(response.status).toBe(201);
  expect(response.body.topic.projectId).toBe(project.id);
});

test('writing a topic with a key replays the same article', async () => {
  const {
    body: { topic },
  } = await acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'Write me' });
  const headers = { 'idempotency-key': 'write-1' };
  const first = await acme.app.api().post(`/topics/${topic.id}/write`, undefined, headers);
  const replay = await acme.app.api().post(`/topics/${topic.id}/write`, undefined, headers);
  expect(first.status).toBe(201);
  expect(replay.body.article.id).toBe(first.body.article.id);
  const written = (await acme.app.platform.eventStore.readStream(`topic-${topic.id}`)).filter(
    (event) => event.type === 'TopicWritten',
  );
  expect(written).toHaveLength(1);
});

test('an error is not stored: the same key runs again once the cause is fixed; an over-long key is refused', async () => {
  const headers = { 'idempotency-key': 'first-refused' };
  const {
    body: { topic },
  } = await acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'Rejected first' });
  await acme.app.api().patch(`/topics/${topic.id}`, { status: 'rejected' });
  expect((await acme.app.api().post(`/topics/${topic.id}/write`, undefined, headers)).status).toBe(
    409,
  );
  await acme.app.api().patch(`/topics/${topic.id}`, { status: 'approved' });
  const retried = await acme.app.api().post(`/topics/${topic.id}/write`, undefined, headers);
  expect(retried.status).toBe(201);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
  const long = await acme.app
    .api()
    .post(
      `/projects/${acme.projectId}/topics`,
      { title: 'x' },
      { 'idempotency-key': 'k'.repeat(256) },
    );
  expect(long.status).toBe(400);
  expect(long.body.error.message).toContain('Idempotency-Key');
});
