import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { integrationsStream } from '../../../src/domain/integrations/decide.ts';
import { loadStream } from '../../../src/eventstore/handleCommand.ts';
import { applyCorrectionHandler } from '../../../src/features/publishing/build/buildCorrection.ts';
import { BUILD_PASS_MS } from '../../../src/features/publishing/build/buildWatch.ts';
import { newJob } from '../../../src/features/publishing/jobs/jobs.ts';
import { PUBLISHING_JOBS } from '../../../src/features/publishing/collections.ts';
import { eventually } from '../../support/eventually.ts';
import { astroBlog } from '../../fixtures/repos/astroBlog.ts';
import { articleIn, startWorld, type World } from './world.ts';

/**
 * A failing site build that points at Inkstream's file gets a corrected commit (issue 27, item 3):
 * the profile is learned again from the base branch, the article rendered with it, and a file that
 * differs from the branch's is proposed; a person applies it (or the project's
 * publishing.autoCorrect does at once), committed once through the publishing job queue. The fake
 * GitHub speaks check runs with annotations as GitHub does.
 */
const clock = manualClock('2026-05-01T08:00:00.000Z');
let w: World;
let repos = 0;

beforeAll(async () => {
  w = await startWorld({
    clock,
    profiles: 'learn',
    env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' },
  });
}, 60_000);
afterAll(async () => {
  expect(w.github.violations).toEqual([]);
  await w.close();
});

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** A fresh Astro blog repository (its own, so a schema change touches only this test), connected and learned, with an article's pull request open. */
async function openPullRequest(autoCorrect = false) {
  const name = `astro${++repos}`;
  w.github.addRepository({ owner: 'acme', name, files: astroBlog.files });
  w.github.addToken(`ghp_${name}`, {
    login: 'inkbot',
    repositories: { [`acme/${name}`]: 'write' },
  });
  const projectId = await w.project();
  if (autoCorrect)
    expect(
      (await w.api.patch(`/projects/${projectId}`, { settings: { publishing: { autoCorrect } } }))
        .body.project.settings.publishing,
    ).toEqual({ autoCorrect: true });
  expect(
    (
      await w.connect(projectId, {
        repository: `acme/${name}`,
        contentDirectory: 'src/content/blog',
        credentials: { type: 'token', token: `ghp_${name}` },
      })
    ).status,
  ).toBe(200);
  await eventually(
    async () =>
      (await loadStream(w.app.platform.eventStore, integrationsStream, projectId)).state.github
        ?.contentProfile.state,
    (state) => state === 'learned',
    { what: 'the content profile learned' },
  );
  const articleId = await w.draft(projectId);
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const article = await articleIn(w.api, articleId, ['pr_open']);
  const head = () => w.github.repository('acme', name).branches.get(article.branch)!;
  const file = () => w.github.fileAt('acme', name, article.branch, article.path)!.toString('utf8');
  return { name, projectId, articleId, article, head, file };
}

/** The site's schema gains a required field on the base branch. */
function requireAuthor(name: string): void {
  w.github.pushCommit('acme', name, 'main', {
    message: 'Require an author',
    files: {
      'src/content.config.ts': astroBlog.files['src/content.config.ts'].replace(
        'heroImage: image().optional(),',
        'heroImage: image().optional(),\n      author: z.string(),',
      ),
    },
  });
}

function failBuild(name: string, sha: string, path: string, message: string): void {
  w.github.reportCheckRun('acme', name, {
    sha,
    name: 'build',
    status: 'completed',
    conclusion: 'failure',
    summary: 'astro build failed',
    annotations: [{ path, startLine: 3, title: 'InvalidContentEntryDataError', message }],
  });
  clock.advance(BUILD_PASS_MS);
}

const articleOf = async (articleId: string) =>
  (await w.api.get(`/articles/${articleId}`)).body.article;

/** Every publishing job of the article has run (the build's, and a correction's). */
const jobsSettled = (articleId: string) =>
  eventually(
    async () =>
      (
        await w.app.platform.readStore.find(PUBLISHING_JOBS, {
          filter: { articleId },
          limit: 10,
        })
      ).items.length,
    (n) => n === 0,
    { what: 'the publishing jobs to finish', timeoutMs: 20_000 },
  );

const historyTypes = async (articleId: string) =>
  ((await w.api.get(`/articles/${articleId}/history?limit=200`)).body.history as any[]).map(
    (entry) => entry.type as string,
  );

test('hostile: settings.publishing takes only a boolean autoCorrect (400 naming the field, nothing changed); absent reads as off', async () => {
  const projectId = await w.project();
  for (const publishing of [{ autoCorrect: 'yes' }, { autoCorrect: true, commitAs: 'root' }, 1]) {
    const refused = await w.api.patch(`/projects/${projectId}`, { settings: { publishing } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_failed');
    expect(JSON.stringify(refused.body.error.details)).toContain('publishing');
  }
  const project = (await w.api.get(`/projects/${projectId}`)).body.project;
  expect(project.settings.publishing).toBeUndefined();
});

test('hostile: a failure annotated on another file, or on the file when the profile renders it the same, proposes nothing; markup in the annotation stays text', async () => {
  const other = await openPullRequest();
  failBuild(other.name, other.head(), 'src/pages/index.astro', MARKUP);
  const failed = await eventually(
    () => articleOf(other.articleId),
    (a) => a.build?.state === 'failure',
    { what: 'the failed build', timeoutMs: 20_000 },
  );
  expect(failed.build.reason).toBeNull();
  expect(failed.build.checks[0].detail).toContain(MARKUP);
  await jobsSettled(other.articleId);
  expect((await articleOf(other.articleId)).buildCorrection).toBeNull();

  const same = await openPullRequest();
  const before = same.head();
  failBuild(same.name, before, same.article.path, MARKUP);
  await eventually(
    () => articleOf(same.articleId),
    (a) => a.build?.state === 'failure',
    { what: 'the failed build on the file', timeoutMs: 20_000 },
  );
  await jobsSettled(same.articleId);
  expect((await articleOf(same.articleId)).buildCorrection).toBeNull();
  expect(same.head()).toBe(before);
  const refused = await w.api.post(`/articles/${same.articleId}/build/correction/apply`);
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('invalid_state');
  expect(await historyTypes(same.articleId)).not.toContain('ArticleBuildCorrectionProposed');
}, 90_000);

test('the site schema gained a required field: the rejected file gets a proposed correction, committed once when applied (a second apply is 409)', async () => {
  const pr = await openPullRequest();
  const opened = pr.head();
  expect(pr.file()).not.toMatch(/^author: /m);
  requireAuthor(pr.name);
  failBuild(pr.name, opened, pr.article.path, `author: Required ${MARKUP}`);

  const proposed = await eventually(
    () => articleOf(pr.articleId),
    (a) => a.buildCorrection?.state === 'proposed',
    { what: 'the proposed correction', timeoutMs: 20_000 },
  );
  expect(proposed.buildCorrection).toMatchObject({
    path: pr.article.path,
    headSha: opened,
    commitSha: null,
  });
  expect(proposed.buildCorrection.reason).not.toContain('<');
  await jobsSettled(pr.articleId);
  // Proposed, not committed.
  expect(pr.head()).toBe(opened);
  expect(pr.file()).not.toMatch(/^author: /m);

  const applied = await w.api.post(`/articles/${pr.articleId}/build/correction/apply`);
  expect(applied.status).toBe(202);
  expect(applied.body.article.buildCorrection.state).toBe('applying');
  const done = await eventually(
    () => articleOf(pr.articleId),
    (a) => a.buildCorrection?.state === 'applied',
    { what: 'the applied correction', timeoutMs: 20_000 },
  );
  expect(pr.head()).not.toBe(opened);
  expect(done.buildCorrection.commitSha).toBe(pr.head());
  expect(pr.file()).toMatch(/^author: /m);
  const branchCommits = w.github.branchHistory('acme', pr.name, pr.article.branch);
  expect(branchCommits.at(-2)!.sha).toBe(opened);
  expect(branchCommits.at(-1)!.message).not.toContain('<');

  // The job run again (a kill -9 after the record, before the job was removed): the stream says applied, nothing more.
  const { platform } = w.app;
  const asked = (await platform.eventStore.readStream(`article-${pr.articleId}`)).find(
    (event) => event.type === 'ArticleBuildCorrectionApplyRequested',
  )!;
  const rerun = await applyCorrectionHandler(platform)(
    newJob({
      id: `apply-correction:${asked.id}`,
      kind: 'applyCorrection',
      event: asked,
      projectId: pr.projectId,
      articleId: pr.articleId,
      nowMs: platform.clock.nowMs(),
    }),
  );
  expect(rerun).toEqual({ kind: 'done' });
  expect(w.github.branchHistory('acme', pr.name, pr.article.branch)).toHaveLength(
    branchCommits.length,
  );

  const again = await w.api.post(`/articles/${pr.articleId}/build/correction/apply`);
  expect(again.status).toBe(409);
  await jobsSettled(pr.articleId);
  expect(w.github.branchHistory('acme', pr.name, pr.article.branch)).toHaveLength(
    branchCommits.length,
  );
  expect(
    (await historyTypes(pr.articleId)).filter((type) => type.startsWith('ArticleBuildCorrection')),
  ).toEqual([
    'ArticleBuildCorrectionProposed',
    'ArticleBuildCorrectionApplyRequested',
    'ArticleBuildCorrectionApplied',
  ]);
}, 90_000);

test('with publishing.autoCorrect on, the correction is committed at once', async () => {
  const pr = await openPullRequest(true);
  const opened = pr.head();
  requireAuthor(pr.name);
  failBuild(pr.name, opened, pr.article.path, 'author: Required');
  const done = await eventually(
    () => articleOf(pr.articleId),
    (a) => a.buildCorrection?.state === 'applied',
    { what: 'the correction applied on its own', timeoutMs: 20_000 },
  );
  expect(done.buildCorrection.commitSha).toBe(pr.head());
  expect(pr.file()).toMatch(/^author: /m);
  expect(w.github.branchHistory('acme', pr.name, pr.article.branch).at(-2)!.sha).toBe(opened);
}, 90_000);
