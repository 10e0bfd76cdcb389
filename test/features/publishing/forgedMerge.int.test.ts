import { afterAll, beforeAll, expect, test } from 'vitest';
import { pullRequestClosed } from '../../support/githubWebhooks.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
beforeAll(async () => {
  w = await startWorld();
}, 60_000);
afterAll(() => w.close());

test("a merge event signed with the project's secret but carrying a javascript: html_url and a non-string merged_at records neither", async () => {
  const { secret, articleId } = await w.pullRequestOpen();
  const open = await articleIn(w.api, articleId, ['pr_open']);
  expect(open.prUrl).toMatch(/^https?:\/\//);
  w.github.mergePullRequest('acme', 'site', 1, 'octo');
  const payload = pullRequestClosed(w.github, { owner: 'acme', repo: 'site', number: 1 });
  payload.pull_request.html_url = 'javascript:alert(document.cookie)';
  payload.pull_request.merged_at = { $gt: '' };
  payload.pull_request.merge_commit_sha = '<img src=x onerror=alert(1)>';
  const answer = await w.deliver(await w.sign('pull_request', payload, secret));
  expect(answer.body).toMatchObject({ status: 'accepted' });

  const merged = await articleIn(w.api, articleId, ['merged']);
  expect(merged.prUrl).toBe(open.prUrl);
  expect(typeof merged.publishedAt).toBe('string');
  expect(Number.isNaN(Date.parse(merged.publishedAt))).toBe(false);
  const events = await w.api.get(`/articles/${articleId}/history`);
  expect(JSON.stringify(events.body)).not.toMatch(/javascript:|onerror|\$gt/);
}, 90_000);
