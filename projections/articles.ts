import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection, type EventOf } from '../src/readstore/projection.ts';
import {
  ARTICLE_EVENTS,
  ENDS_BUDGET_WAIT,
  type ArticleEvent,
  type ArticleStatus,
  type Cover,
  type Generation,
  type Neutralised,
  type Source,
} from '../src/domain/articles/article.ts';
import { articleTextParts, wordsIn } from '../src/domain/articles/articleText.ts';
import type { StepRun, WaitingFor } from '../src/domain/articles/runs.ts';
import type { DecayNote } from '../src/domain/decay/rules.ts';

/** An article's model use: every step as it ran, and the totals (costUsd null while no step had a price). */
export type ArticleUsage = {
  tokensIn: number;
  tokensOut: number;
  costUsd: number | null;
  steps: StepRun[];
};

export const emptyUsage = (): ArticleUsage => ({
  tokensIn: 0,
  tokensOut: 0,
  costUsd: null,
  steps: [],
});

function withStep(usage: ArticleUsage, run: StepRun): ArticleUsage {
  const costUsd =
    run.costUsd === null
      ? usage.costUsd
      : Math.round(((usage.costUsd ?? 0) + run.costUsd) * 1e6) / 1e6;
  return {
    tokensIn: usage.tokensIn + run.tokensIn,
    tokensOut: usage.tokensOut + run.tokensOut,
    costUsd,
    steps: [...usage.steps, run],
  };
}
import type { QualityCheck } from '../src/domain/articles/quality.ts';
import type { Build, BuildCorrection } from '../src/domain/articles/build.ts';

/** The article read model: the full record for GET /articles/:id; lists pick the summary fields. */
export type ArticleDoc = {
  id: string;
  accountId: string;
  projectId: string;
  topicId: string;
  status: ArticleStatus;
  title: string;
  keyword: string | null;
  slug: string | null;
  version: number;
  content: string | null;
  frontmatter: Record<string, unknown> | null;
  body: string | null;
  wordCount: number;
  sources: Source[];
  cover: Cover | null;
  generation: Generation | null;
  /** Model text MDX would have run, kept as literal text: the draft's, then each revision's (docs/mdx-safety.md). */
  neutralised?: Neutralised[];
  /** The quality gate's verdicts on the current version (docs/content-quality.md); absent before the gate existed. */
  checks?: QualityCheck[];
  prUrl: string | null;
  prNumber: number | null;
  branch: string | null;
  path: string | null;
  publishMode: 'pr' | 'direct' | null;
  pendingRevisions: number;
  lastRevisionSummary: string | null;
  /** The decay finding the latest refresh was started on (docs/decay.md); absent or null without one. */
  refreshDecay?: DecayNote | null;
  /** Why the latest revision was not applied; null once a later one applies. */
  revisionFailure?: { revisionId: string; reason: string; at: string } | null;
  failure: { step: ArticleStatus; reason: string } | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The calendar month (YYYY-MM, UTC) the article was queued in, for the monthly quota. */
  createdMonth: string;
  /** Absent on documents built before model use was recorded: read as empty. */
  usage?: ArticleUsage;
  waitingFor?: WaitingFor | null;
  /** What the article waits for, flat for the query that finds the articles a budget change resumes. */
  waiting?: 'budget' | null;
  /** The site's build of the pull request's head commit; null (or absent) until it was read. */
  build?: Build | null;
  /** The commit at the head of the open pull request (absent on documents built before it was kept). */
  headSha?: string | null;
  /** The latest correction of a build that rejected Inkstream's file; absent before one. */
  buildCorrection?: BuildCorrection | null;
};

const MAX_NEUTRALISED = 50;

export const articles = defineProjection<ArticleDoc, ArticleEvent>({
  name: 'articles',
  collection: 'articles',
  // The article list (newest first, by status or not), a project's articles in id order (search
  // analytics, research), a pull request's article, the monthly quota's count, the PR reconciler.
  indexes: [
    { projectId: 1, createdAt: -1 },
    { projectId: 1, status: 1, createdAt: -1 },
    'projectId',
    { projectId: 1, prNumber: 1 },
    { accountId: 1, createdMonth: 1 },
    'status',
    // The articles waiting for an account's budget, resumed when a budget changes or a month begins.
    { accountId: 1, waiting: 1 },
    'waiting',
  ],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) => String(event.data.articleId),
  evolve(doc, event) {
    const next = evolveArticleDoc(doc, event);
    if (!next) return next;
    if (event.type === 'ArticleWaitingForBudget')
      return { ...next, waitingFor: event.data.waitingFor, waiting: 'budget' };
    return next.waitingFor && ENDS_BUDGET_WAIT.has(event.type)
      ? { ...next, waitingFor: null, waiting: null }
      : next;
  },
});

function evolveArticleDoc(doc: ArticleDoc | null, event: EventOf<ArticleEvent>): ArticleDoc | null {
  if (event.type === 'ArticleQueued') {
    const { articleId, topicId, projectId, title, keyword, at } = event.data;
    return {
      id: articleId,
      accountId: event.metadata.accountId,
      projectId,
      topicId,
      status: 'queued',
      title,
      keyword,
      slug: null,
      version: 0,
      content: null,
      frontmatter: null,
      body: null,
      wordCount: 0,
      sources: [],
      cover: null,
      generation: null,
      prUrl: null,
      prNumber: null,
      branch: null,
      path: null,
      publishMode: null,
      pendingRevisions: 0,
      lastRevisionSummary: null,
      failure: null,
      publishedAt: null,
      createdAt: at,
      updatedAt: at,
      createdMonth: at.slice(0, 7),
      usage: emptyUsage(),
      waitingFor: null,
      waiting: null,
    };
  }
  if (!doc) return doc;
  const updatedAt = event.data.at;
  switch (event.type) {
    case 'ArticleResearchStarted':
      return { ...doc, status: 'researching', updatedAt };
    case 'ArticleResearched':
      return { ...doc, status: 'writing', sources: event.data.sources, updatedAt };
    case 'ArticleDrafted': {
      const {
        version,
        mdx,
        slug,
        title,
        wordCount,
        cover,
        generation,
        purpose,
        neutralised = [],
        checks = [],
      } = event.data;
      return {
        ...doc,
        status: purpose === 'refresh' ? 'writing' : 'draft',
        version,
        content: mdx,
        ...articleTextParts(mdx),
        slug,
        title,
        wordCount,
        cover,
        generation,
        neutralised,
        checks,
        failure: null,
        updatedAt,
      };
    }
    case 'ArticleFailed':
      return {
        ...doc,
        status: 'failed',
        failure: { step: event.data.step, reason: event.data.reason },
        updatedAt,
      };
    case 'ArticleRetried':
      return { ...doc, status: event.data.step, failure: null, updatedAt };
    case 'ArticleRevisionRequested':
      return { ...doc, pendingRevisions: doc.pendingRevisions + 1, updatedAt };
    case 'ArticleRevised': {
      const { version, mdx, summary, generation, neutralised = [], checks } = event.data;
      const parsed = articleTextParts(mdx);
      const wordCount = event.data.wordCount ?? wordsIn(parsed.body);
      return {
        ...doc,
        version,
        content: mdx,
        ...parsed,
        wordCount,
        revisionFailure: null,
        generation,
        checks: checks ?? doc.checks,
        neutralised: [...(doc.neutralised ?? []), ...neutralised].slice(-MAX_NEUTRALISED),
        pendingRevisions: Math.max(0, doc.pendingRevisions - 1),
        lastRevisionSummary: summary,
        updatedAt,
      };
    }
    case 'ArticleRevisionFailed': {
      const { revisionId, reason, at } = event.data;
      return {
        ...doc,
        pendingRevisions: Math.max(0, doc.pendingRevisions - 1),
        revisionFailure: { revisionId, reason, at },
        updatedAt,
      };
    }
    case 'ArticlePublishRequested':
      return {
        ...doc,
        status: 'publishing',
        publishMode: event.data.mode,
        failure: null,
        updatedAt,
      };
    case 'ArticlePullRequestOpened': {
      const { prUrl, prNumber, branch, path } = event.data;
      const headSha = event.data.commitSha;
      return {
        ...doc,
        status: 'pr_open',
        prUrl,
        prNumber,
        branch,
        path,
        headSha,
        build: null,
        updatedAt,
      };
    }
    case 'ArticleRevisionCommitted':
      // A new head commit: the build read so far was another commit's.
      if (doc.headSha === event.data.commitSha) return doc;
      return {
        ...doc,
        headSha: event.data.commitSha,
        build: null,
        buildCorrection: doc.buildCorrection?.state === 'applied' ? doc.buildCorrection : null,
      };
    case 'ArticleBuildObserved':
      return { ...doc, build: event.data.build };
    case 'ArticleBuildCorrectionProposed': {
      const { path, reason, headSha } = event.data;
      return {
        ...doc,
        buildCorrection: {
          state: 'proposed',
          path,
          reason,
          headSha,
          commitSha: null,
          at: event.data.at,
        },
      };
    }
    case 'ArticleBuildCorrectionApplyRequested':
      return doc.buildCorrection
        ? { ...doc, buildCorrection: { ...doc.buildCorrection, state: 'applying' } }
        : doc;
    case 'ArticleBuildCorrectionApplied':
      return {
        ...doc,
        headSha: event.data.commitSha,
        build: event.data.commitSha === doc.headSha ? doc.build : null,
        buildCorrection: doc.buildCorrection
          ? {
              ...doc.buildCorrection,
              state: 'applied',
              commitSha: event.data.commitSha,
              at: event.data.at,
            }
          : null,
      };
    case 'ArticleMerged':
      return {
        ...doc,
        status: 'merged',
        path: event.data.path,
        prUrl: event.data.prUrl ?? doc.prUrl,
        publishedAt: event.data.at,
        updatedAt,
      };
    case 'ArticleClosed':
      return { ...doc, status: 'closed', updatedAt };
    case 'ArticleRefreshRequested':
      return {
        ...doc,
        status: 'researching',
        refreshDecay: event.data.decay ?? null,
        updatedAt,
      };
    case 'ArticleStepRecorded':
      return { ...doc, usage: withStep(doc.usage ?? emptyUsage(), event.data.run) };
    default:
      return doc;
  }
}
