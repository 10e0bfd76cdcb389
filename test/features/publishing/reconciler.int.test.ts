import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { RECONCILE_INTERVAL_MS } from '../../../src/features/publishing/github/reconciler.ts';
import { articleIn, startWorld, type World } from './world.ts';

const clock = manualClock('2026-05-01T08:00:00.000Z');
let w: World;

beforeAll(async () => {
  w = await startWorld({ clock });
});
afterAll(() => w.close());

test('without the GitHub webhook, merges and closes are noticed on the next pass of the reconciler', async () => {
  const projectId = await w.project();
  expect((await w.connect(projectId)).status).toBe(200);
  const merging = await w.draft(projectId, 'Why we bake at night');
  const closing = await w.draft(projectId, 'A day at the market stall');
  await w.api.post(`/articles/${merging}/approve`);
  await w.api.post(`/articles/${closing}/approve`);
  const toMerge = await articleIn(w.api, merging, ['pr_open']);
  const toClose = await articleIn(w.api, closing, ['pr_open']);

  w.github.mergePullRequest('acme', 'site', toMerge.prNumber, 'octo');
  w.github.closePullRequest('acme', 'site', toClose.prNumber);
  const checks = w.github.calls('pulls/get').length;

  clock.advance(RECONCILE_INTERVAL_MS);
  const merged = await articleIn(w.api, merging, ['merged']);
  expect(merged.publishedAt).not.toBeNull();
  expect(merged.prUrl).toBe(toMerge.prUrl);
  await articleIn(w.api, closing, ['closed']);
  expect(w.github.calls('pulls/get').length - checks).toBe(2);

  const history = (await w.api.get(`/articles/${merging}/history?limit=200`)).body.history as {
    type: string;
    actor: unknown;
  }[];
  expect(history.find((entry) => entry.type === 'ArticleMerged')?.actor).toEqual({
    kind: 'system',
    worker: 'publishing.reconciler',
  });
});
