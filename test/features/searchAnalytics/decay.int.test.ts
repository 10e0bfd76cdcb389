import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { END, HOSTILE_QUERY, LABELLED_SERIES, rowsOf, SYNC_AT } from '../../support/decaySeries.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import {
  connectBody,
  googleEnv,
  integrationPath,
  PROPERTY,
  settledSync,
  startGoogle,
  type Google,
} from './world.ts';

/**
 * The labelled fixture (test/support/decaySeries.ts) against the fake Search Console: a project
 * with 34 published articles and up to 16 months of daily figures, connected with a backfill,
 * gets exactly the expected verdicts and rules.
 */
const clock = manualClock(SYNC_AT);
let google: Google;
let app: TestInkstream;
let projectId: string;
const ids = new Map<string, string>();
let api: ReturnType<TestInkstream['api']>;

beforeAll(async () => {
  google = await startGoogle();
  app = await startInkstream({ env: googleEnv(google), clock });
  await stopPipeline(app);
  const api = app.api();
  projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' }))
    .body.project.id;
  for (const entry of LABELLED_SERIES) {
    const topicId = (await api.post(`/projects/${projectId}/topics`, { title: entry.label })).body
      .topic.id;
    const articleId = (await api.post(`/topics/${topicId}/write`)).body.article.id;
    clock.set(entry.publishedAt);
    await advanceArticle(app.platform, accountIdForName('test'), articleId, 'merged', {
      path: `content/${entry.slug}.mdx`,
      mdx: `---\ntitle: ${entry.slug}\n---\n\n${entry.text}\n`,
    });
    clock.set(SYNC_AT);
    ids.set(entry.slug, articleId);
    google.addRows(PROPERTY, rowsOf(entry));
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
  await google?.close();
});

async function allFindings() {
  const found: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await app
      .api()
      .get(`/projects/${projectId}/decay?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    found.push(...page.body.findings);
    cursor = page.body.nextCursor;
  } while (cursor);
  return found;
}

test('before a connection the project has no findings; malformed and foreign ids are 404', async () => {
  const empty = await app.api().get(`/projects/${projectId}/decay`);
  expect(empty.body).toMatchObject({ findings: [], nextCursor: null, assessedAt: null });
  expect(empty.body.refreshes.helpedShare).toBeNull();
  expect((await app.api().get('/projects/prj_nope/decay')).status).toBe(404);
  const stranger = await app.newKey('stranger');
  expect((await app.api(stranger).get(`/projects/${projectId}/decay`)).status).toBe(404);
  expect((await app.api().get(`/projects/${projectId}/decay?limit=0`)).status).toBe(400);
});

test('the thresholds are project settings: malformed ones are refused, changing nothing; set ones are kept beside the defaults', async () => {
  for (const decay of [
    { minClicks: -1 },
    { bogus: 1 },
    { positionDrop: '3' },
    { staleMonths: 1.5 },
  ]) {
    const refused = await app.api().patch(`/projects/${projectId}`, { settings: { decay } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_failed');
  }
  expect(
    (await app.api().get(`/projects/${projectId}`)).body.project.settings.decay,
  ).toBeUndefined();
  const other = (
    await app.api().post('/projects', { name: 'Other', websiteUrl: 'https://other.example' })
  ).body.project.id;
  await app.api().patch(`/projects/${other}`, { settings: { decay: { minClicks: 5 } } });
  const kept = await app
    .api()
    .patch(`/projects/${other}`, { settings: { decay: { staleMonths: 24 } } });
  expect(kept.body.project.settings.decay).toEqual({ minClicks: 5, staleMonths: 24 });
});

test('a backfilled connection judges every labelled series as expected, worst first', async () => {
  const connected = await app
    .api()
    .put(integrationPath(projectId), connectBody({ backfill: true }));
  expect(connected.status).toBe(200);
  expect(connected.body.searchAnalytics.backfill).toBe(true);
  const sync = await settledSync(app.api(), projectId, eventually);
  expect(sync.lastSync.status).toBe('completed');

  const findings = await allFindings();
  expect(findings).toHaveLength(LABELLED_SERIES.length);
  const byId = new Map(findings.map((finding) => [finding.articleId, finding]));
  const reproduced = LABELLED_SERIES.filter((entry) => {
    const finding = byId.get(ids.get(entry.slug)!);
    return (
      finding.verdict === entry.expected.verdict &&
      JSON.stringify(finding.signals.map((signal: any) => signal.rule).sort()) ===
        JSON.stringify([...entry.expected.rules].sort())
    );
  });
  expect(
    LABELLED_SERIES.filter((entry) => !reproduced.includes(entry)).map((entry) => ({
      slug: entry.slug,
      expected: entry.expected,
      got: byId.get(ids.get(entry.slug)!),
    })),
  ).toEqual([]);
  expect(reproduced).toHaveLength(LABELLED_SERIES.length);

  const ranks = findings.map((finding) =>
    ['none', 'low', 'medium', 'high'].indexOf(finding.severity),
  );
  expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
  expect(findings[0].severity).toBe('high');

  // The evidence names the windows and figures.
  const dropped = byId.get(ids.get('below-best-1')!);
  const signal = dropped.signals[0];
  expect(signal).toMatchObject({ rule: 'clicks_below_best', severity: 'high' });
  expect(signal.current.window).toEqual({ start: '2026-02-13', end: END });
  expect(signal.best.clicks).toBeGreaterThan(signal.current.clicks);
  const dated = byId.get(ids.get('dated-1')!).signals[0];
  expect(dated.sentences[0]).toContain('version 3.2.1');
  const fresh = byId.get(ids.get('new-1')!);
  expect(fresh.history.days).toBeLessThan(56);

  // The article read carries its finding.
  const article = await app.api().get(`/articles/${ids.get('position-2')}`);
  expect(article.body.article.decay).toMatchObject({
    verdict: 'decaying',
    severity: 'medium',
    signals: [
      { rule: 'position_worsened', queries: [{ query: 'rye starter', before: 2, now: 9 }] },
    ],
  });
});

test('a refresh started on a decaying article carries the finding to webhook subscribers on the article payload, with no new event type', async () => {
  // Another key of the same account: the fixture's setup used this minute's requests of the first.
  api = app.api(await app.newKey('test'));
  const articleId = ids.get('query-lost-4')!;
  const refreshed = await api.post(`/articles/${articleId}/refresh`);
  expect(refreshed.status).toBe(202);
  expect(refreshed.body.article.refreshDecay).toMatchObject({
    verdict: 'decaying',
    signals: [{ rule: 'query_lost', queries: [{ query: HOSTILE_QUERY }] }],
  });
  const event = await eventually(
    async () =>
      (await feed('/events?type=article.status_changed&limit=200')).find(
        (candidate: any) =>
          candidate.data.id === articleId && candidate.data.previousStatus === 'merged',
      ),
    (found) => found !== undefined,
    { what: 'the refresh on the feed', timeoutMs: 45_000, maxIntervalMs: 1_000 },
  );
  expect(event.data.status).toBe('researching');
  expect(event.data.refreshDecay.signals[0].queries[0].query).toBe(HOSTILE_QUERY);
  const types = new Set<string>((await feed('/events?limit=200')).map((each: any) => each.type));
  expect(
    [...types].every((type) => type.startsWith('article.') || type.startsWith('project.')),
  ).toBe(true);
  // A steady article's refresh carries none.
  const steady = await api.post(`/articles/${ids.get('steady-1')}/refresh`);
  expect(steady.body.article.refreshDecay).toBeNull();
}, 90_000);

/** Every event of the feed (oldest first), following its cursor. */
async function feed(path: string): Promise<any[]> {
  const events: any[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: any = await api.get(`${path}${after ? `&after=${after}` : ''}`);
    expect(answer.body, JSON.stringify(answer.body)).toHaveProperty('events');
    events.push(...answer.body.events);
    if (!answer.body.hasMore) return events;
    after = answer.body.nextCursor;
  }
}
