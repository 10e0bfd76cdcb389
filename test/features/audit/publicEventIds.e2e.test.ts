import { afterAll, beforeAll, expect, test } from 'vitest';
import { pullRequestClosed } from '../../support/githubWebhooks.ts';
import { eventually } from '../../support/eventually.ts';
import { startReceiverPool } from '../../support/webhookReceiver.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';

let w: World;
let pool: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  pool = await startReceiverPool();
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
  await pool?.close();
});

type Entry = { revision: number; type: string; publicEventIds: string[] };
type Envelope = { id: string; type: string; data: { id?: string; projectId?: string } };

async function feedOf(matches: (event: Envelope) => boolean): Promise<Envelope[]> {
  const events: Envelope[] = [];
  let after: string | null = null;
  for (;;) {
    const page: { events: Envelope[]; nextCursor: string | null; hasMore: boolean } = (
      await w.api.get(`/events?limit=200${after ? `&after=${after}` : ''}`)
    ).body;
    events.push(...page.events);
    after = page.nextCursor;
    if (!page.hasMore) return events.filter(matches);
  }
}

test('a scripted article life: every webhook delivery is found in exactly one history entry, and each entry lists what the feed shows for it', async () => {
  const receiver = await pool.start();
  const created = await w.api.post('/webhooks', { url: receiver.url });
  expect(created.status).toBe(201);
  receiver.secret = created.body.webhook.secret;

  const projectId = await w.project();
  const secret = (await w.connect(projectId)).body.github.webhook.secret;
  const articleId = await w.draft(projectId, 'How bakeries plan a week of bread');
  expect(
    (
      await w.api.post(`/articles/${articleId}/revise`, {
        instruction: 'Make the introduction shorter.',
      })
    ).status,
  ).toBe(202);
  await eventually(
    async () => (await w.api.get(`/articles/${articleId}`)).body.article,
    (a) => a.version === 2,
    { what: 'the revision' },
  );
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  await articleIn(w.api, articleId, ['pr_open']);
  w.github.mergePullRequest('acme', 'site', 1, 'octo');
  expect(
    (
      await w.deliver(
        await w.sign(
          'pull_request',
          pullRequestClosed(w.github, { owner: 'acme', repo: 'site', number: 1 }),
          secret,
        ),
      )
    ).status,
  ).toBe(202);
  await articleIn(w.api, articleId, ['merged']);

  const history: Entry[] = (await w.api.get(`/articles/${articleId}/history?limit=1000`)).body
    .history;
  const feed = await eventually(
    () => feedOf((event) => event.data.id === articleId),
    (events) => events.some((event) => event.type === 'article.published'),
    { what: 'the feed' },
  );
  const delivered = await eventually(
    async () =>
      receiver.received
        .map((request) => JSON.parse(request.body.toString()) as Envelope)
        .filter((envelope) => envelope.data.id === articleId),
    (envelopes) => envelopes.length === feed.length,
    { what: 'every delivery' },
  );

  // The merge is one stored event and two public ones, both in its entry.
  const merged = history.find((entry) => entry.type === 'ArticleMerged')!;
  expect(merged.publicEventIds.map((id) => feed.find((event) => event.id === id)?.type)).toEqual([
    'article.status_changed',
    'article.published',
  ]);
  // Each delivery: in exactly one entry's list.
  for (const envelope of delivered) {
    expect(
      history
        .filter((entry) => entry.publicEventIds.includes(envelope.id))
        .map((entry) => entry.type),
      envelope.type,
    ).toHaveLength(1);
  }
  // Each entry's list: the feed's events of that entry, in feed order; together, the whole feed.
  expect(history.flatMap((entry) => entry.publicEventIds)).toEqual(feed.map((event) => event.id));
  expect(new Set(delivered.map((envelope) => envelope.id))).toEqual(
    new Set(feed.map((event) => event.id)),
  );
  // A page that starts mid-stream gives the same ids as the whole history.
  const paged: Entry[] = [];
  for (let cursor: string | null = '0'; cursor !== null; ) {
    const page: { history: Entry[]; nextCursor: string | null } = (
      await w.api.get(`/articles/${articleId}/history?limit=3&cursor=${cursor}`)
    ).body;
    paged.push(...page.history);
    cursor = page.nextCursor;
  }
  expect(paged.map((entry) => entry.publicEventIds)).toEqual(
    history.map((entry) => entry.publicEventIds),
  );
  // Entries that publish nothing say so with an empty list, not a missing field.
  expect(
    history.find((entry) => entry.type === 'ArticleRevisionRequested')?.publicEventIds,
  ).toEqual([]);

  // The project's history joins its own events (the crawl's brand.crawled) the same way.
  const projectHistory: Entry[] = (await w.api.get(`/projects/${projectId}/history?limit=1000`))
    .body.history;
  const projectFeed = await feedOf(
    (event) => event.type.startsWith('brand.') && event.data.projectId === projectId,
  );
  expect(projectFeed.length).toBeGreaterThan(0);
  expect(projectHistory.flatMap((entry) => entry.publicEventIds)).toEqual(
    projectFeed.map((event) => event.id),
  );
}, 60_000);

test("a topic's history entries carry an empty list: topics have no public events", async () => {
  const projectId = await w.project();
  const topic = (
    await w.api.post(`/projects/${projectId}/topics`, {
      title: 'Rye starters',
      keyword: 'rye starter',
    })
  ).body.topic;
  const history: Entry[] = (await w.api.get(`/topics/${topic.id}/history`)).body.history;
  expect(history.length).toBeGreaterThan(0);
  for (const entry of history) expect(entry.publicEventIds).toEqual([]);
});
