import { articleStream, type ArticleCommand } from '../../src/domain/articles/decide.ts';
import type { ArticleStatus } from '../../src/domain/articles/article.ts';
import type { QualityCheck } from '../../src/domain/articles/quality.ts';
import type { Platform } from '../../src/platform.ts';
import { loadStream } from '../../src/eventstore/handleCommand.ts';

const generation = {
  provider: 'offline',
  model: null,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
};

/** What a test may set of the draft and the pull request instead of the defaults ("Hello", PR #7). */
export type ArticleContent = {
  mdx?: string;
  title?: string;
  wordCount?: number;
  checks?: QualityCheck[];
  prUrl?: string;
  /** Where the article is published in the repository (default content/hello.mdx). */
  path?: string;
};

/** The pipeline's own commands, in order, that bring a queued article to each status (what the workers would record). */
function stepsTo(
  status: ArticleStatus,
  at: string,
  content: ArticleContent = {},
): ArticleCommand[] {
  const mdx = content.mdx ?? '---\ntitle: Hello\ntags: [a]\n---\n\n# Hello\n\nBody text.\n';
  const draft: ArticleCommand[] = [
    { type: 'StartResearch', at },
    {
      type: 'RecordResearch',
      outline: [{ heading: 'Intro', points: ['why'] }],
      keyPoints: ['why'],
      sources: [{ url: 'https://example.com/a', title: 'A' }],
      generation,
      at,
    },
    {
      type: 'RecordDraft',
      version: 1,
      mdx,
      slug: 'hello',
      title: content.title ?? 'Hello',
      wordCount: content.wordCount ?? 3,
      cover: null,
      purpose: 'write',
      generation,
      at,
      ...(content.checks ? { checks: content.checks } : {}),
    },
  ];
  const prOpen: ArticleCommand[] = [
    ...draft,
    { type: 'ApproveArticle', mode: 'pr', at },
    {
      type: 'RecordPullRequest',
      prNumber: 7,
      prUrl: content.prUrl ?? 'https://github.com/acme/site/pull/7',
      branch: 'inkstream/hello',
      commitSha: 'abc',
      path: content.path ?? 'content/hello.mdx',
      at,
    },
  ];
  switch (status) {
    case 'queued':
      return [];
    case 'researching':
      return [draft[0]];
    case 'writing':
      return draft.slice(0, 2);
    case 'draft':
      return draft;
    case 'publishing':
      return prOpen.slice(0, 4);
    case 'pr_open':
      return prOpen;
    case 'merged':
      return [
        ...prOpen,
        {
          type: 'RecordMerged',
          commitSha: 'def',
          prUrl: 'https://github.com/acme/site/pull/7',
          path: content.path ?? 'content/hello.mdx',
          mergedBy: 'octo',
          at,
        },
      ];
    case 'closed':
      return [
        ...prOpen,
        {
          type: 'RecordClosed',
          prUrl: 'https://github.com/acme/site/pull/7',
          closedBy: 'octo',
          at,
        },
      ];
    case 'failed':
      return [
        draft[0],
        { type: 'FailStep', step: 'researching', reason: 'the site did not answer', at },
      ];
  }
}

/** Moves a queued article to `status` through the real article stream, as the pipeline would. */
export async function advanceArticle(
  platform: Platform,
  accountId: string,
  articleId: string,
  status: ArticleStatus,
  content?: ArticleContent,
): Promise<void> {
  const at = platform.clock.now();
  let step = 0;
  for (const command of stepsTo(status, at, content)) {
    await platform.commands.execute(articleStream, articleId, command, {
      accountId,
      actor: { kind: 'system', worker: 'test-pipeline' },
      correlationId: articleId,
      requestId: articleId,
      commandId: `test-pipeline:${articleId}:${status}:${step++}`,
    });
  }
}

/**
 * Lands the article's oldest pending revision with this text, as the revision worker would record
 * it (for tests whose pipeline is stopped). Returns the version it made.
 */
export async function completeRevision(
  platform: Platform,
  accountId: string,
  articleId: string,
  revised: { mdx: string; summary: string; checks?: QualityCheck[] },
): Promise<number> {
  const { state } = await loadStream(platform.eventStore, articleStream, articleId);
  if (state.status === 'none' || state.pendingRevisions.length === 0)
    throw new Error(`article ${articleId} has no pending revision`);
  const { revisionId } = state.pendingRevisions[0];
  const version = state.version + 1;
  await platform.commands.execute(
    articleStream,
    articleId,
    {
      type: 'RecordRevision',
      revisionId,
      version,
      mdx: revised.mdx,
      summary: revised.summary,
      checks: revised.checks ?? [],
      diff: { addedLines: 0, removedLines: 0, addedWords: 0, removedWords: 0 },
      generation,
      at: platform.clock.now(),
    },
    {
      accountId,
      actor: { kind: 'system', worker: 'test-pipeline' },
      correlationId: articleId,
      requestId: articleId,
      commandId: `test-pipeline:${articleId}:${revisionId}`,
    },
  );
  return version;
}
