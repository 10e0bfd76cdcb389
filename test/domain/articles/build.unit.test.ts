import { describe, test } from 'vitest';
import type { Build } from '../../../src/domain/articles/build.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import { given } from '../../support/decider.ts';
import { articleEvents as e, articleId, at, historyAt, pullRequestData } from './articleHistory.ts';

const head = pullRequestData.commitSha;
const pending: Build = {
  state: 'pending',
  checks: [{ name: 'build', state: 'pending', url: null, detail: null }],
  previewUrl: null,
  reason: null,
  headSha: head,
};
const observed = (build: Build) =>
  ({ type: 'ArticleBuildObserved', data: { articleId, build, at } }) as const;

describe('RecordBuild: the site build of the open pull request', () => {
  test("a build of the pull request's head is recorded once; the same build again records nothing", () => {
    given(articleStream, ...historyAt.pr_open)
      .when({ type: 'RecordBuild', build: pending, at })
      .thenYields(observed(pending));
    given(articleStream, ...historyAt.pr_open, observed(pending))
      .when({ type: 'RecordBuild', build: pending, at })
      .thenNothing();
  });

  test('a build of another commit (an older head) records nothing', () => {
    given(articleStream, ...historyAt.pr_open)
      .when({ type: 'RecordBuild', build: { ...pending, headSha: 'd00d' }, at })
      .thenNothing();
    const revised = {
      type: 'ArticleRevisionCommitted',
      data: { articleId, revisionId: 'rev_1', commitSha: 'beef', at },
    } as const;
    given(articleStream, ...historyAt.pr_open, revised)
      .when({ type: 'RecordBuild', build: pending, at })
      .thenNothing();
  });

  test('once the pull request is merged or closed, no build is recorded', () => {
    for (const history of [historyAt.merged, historyAt.closed, [...historyAt.pr_open, e.closed()]])
      given(articleStream, ...history)
        .when({ type: 'RecordBuild', build: pending, at })
        .thenNothing();
  });
});
