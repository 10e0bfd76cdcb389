import type { DecayNote } from '../decay/rules.ts';
import type { EventNames } from '../../eventstore/handleCommand.ts';
import type { Neutralised } from '../../mdx/neutralise.ts';

export type { Neutralised };
import type { SearchMetricsSnapshot } from '../searchAnalytics/metrics.ts';
import type { StepRun, WaitingFor } from './runs.ts';
import type { Claim, Evidence, QualityCheck } from './quality.ts';
import type { Build, BuildCorrection } from './build.ts';

export type ArticleStatus =
  | 'queued'
  | 'researching'
  | 'writing'
  | 'draft'
  | 'publishing'
  | 'pr_open'
  | 'merged'
  | 'closed'
  | 'failed';

export const ARTICLE_STATUSES: readonly ArticleStatus[] = [
  'queued',
  'researching',
  'writing',
  'draft',
  'publishing',
  'pr_open',
  'merged',
  'closed',
  'failed',
];

/** Which model wrote something, so auditors can tell real output from offline output. */
export type Generation = {
  provider: string;
  model: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
};
export type Source = { url: string; title: string };
export type OutlineSection = { heading: string; points: string[] };
export type Cover = {
  title: string;
  palette: { primary: string; accent: string; background: string; text: string };
  style: { mood: string; shapes: string; typography: string };
};
export type DiffStats = {
  addedLines: number;
  removedLines: number;
  addedWords: number;
  removedWords: number;
};
export type RevisionSource =
  | { kind: 'api' }
  | { kind: 'github'; login: string; commentId: number; prNumber: number };

export type ArticleEvent =
  | {
      type: 'ArticleQueued';
      data: {
        articleId: string;
        topicId: string;
        projectId: string;
        title: string;
        keyword: string | null;
        brief: string | null;
        trigger: 'api' | 'schedule' | 'cadence';
        at: string;
      };
    }
  | {
      type: 'ArticleResearchStarted';
      data: { articleId: string; purpose: 'write' | 'refresh'; at: string };
    }
  | {
      type: 'ArticleResearched';
      data: {
        articleId: string;
        outline: OutlineSection[];
        keyPoints: string[];
        sources: Source[];
        evidence?: Evidence[];
        generation: Generation;
        at: string;
      };
    }
  | {
      type: 'ArticleDrafted';
      data: {
        articleId: string;
        version: number;
        mdx: string;
        slug: string;
        title: string;
        wordCount: number;
        cover: Cover | null;
        purpose: 'write' | 'refresh';
        generation: Generation;
        neutralised?: Neutralised[];
        claims?: Claim[];
        checks?: QualityCheck[];
        at: string;
      };
    }
  | {
      type: 'ArticleFailed';
      data: { articleId: string; step: ArticleStatus; reason: string; at: string };
    }
  | { type: 'ArticleRetried'; data: { articleId: string; step: ArticleStatus; at: string } }
  | {
      type: 'ArticleRevisionRequested';
      data: {
        articleId: string;
        revisionId: string;
        instruction: string;
        source: RevisionSource;
        at: string;
      };
    }
  /** `wordCount` of the new body (absent in events recorded before it was). */
  | {
      type: 'ArticleRevised';
      data: {
        articleId: string;
        revisionId: string;
        version: number;
        mdx: string;
        summary: string;
        diff: DiffStats;
        wordCount?: number;
        neutralised?: Neutralised[];
        checks?: QualityCheck[];
        generation: Generation;
        at: string;
      };
    }
  | {
      type: 'ArticleRevisionFailed';
      data: { articleId: string; revisionId: string; reason: string; at: string };
    }
  | {
      type: 'ArticlePublishRequested';
      data: {
        articleId: string;
        mode: 'pr' | 'direct';
        purpose: 'publish' | 'refresh';
        at: string;
      };
    }
  /** Where this publication goes (slug, file, branch; null branch: the base branch), chosen once before anything is written. */
  | {
      type: 'ArticlePublishTargetChosen';
      data: { articleId: string; slug: string; path: string; branch: string | null; at: string };
    }
  | {
      type: 'ArticlePullRequestOpened';
      data: {
        articleId: string;
        prNumber: number;
        prUrl: string;
        branch: string;
        commitSha: string;
        path: string;
        at: string;
      };
    }
  | {
      type: 'ArticleRevisionCommitted';
      data: { articleId: string; revisionId: string; commitSha: string; at: string };
    }
  | {
      type: 'ArticleMerged';
      data: {
        articleId: string;
        commitSha: string | null;
        prUrl: string | null;
        path: string;
        mergedBy: string | null;
        at: string;
      };
    }
  | {
      type: 'ArticleClosed';
      data: { articleId: string; prUrl: string; closedBy: string | null; at: string };
    }
  | {
      type: 'ArticleRefreshRequested';
      data: {
        articleId: string;
        refreshId: string;
        at: string;
        /** The decay finding the refresh was started on (docs/decay.md); absent without one. */
        decay?: DecayNote;
      };
    }
  /** Search Console figures of the published URL, recorded by a search-analytics sync (`at` is the sync time). */
  | {
      type: 'ArticleSearchMetricsUpdated';
      data: SearchMetricsSnapshot & {
        articleId: string;
        projectId: string;
        syncId: string;
        at: string;
      };
    }
  /** A model call step as it ran (tokens, time, attempts, estimated cost), appended with the step's outcome. */
  | {
      type: 'ArticleStepRecorded';
      data: { articleId: string; projectId: string; run: StepRun; at: string };
    }
  /** The next step waits, in the state it is in, for a spent monthly budget to be raised (or the month to end). */
  | {
      type: 'ArticleWaitingForBudget';
      data: { articleId: string; waitingFor: WaitingFor; at: string };
    }
  /** A budget changed: the waiting step is checked again. */
  | { type: 'ArticleResumed'; data: { articleId: string; at: string } }
  /** The site's build of the pull request's head commit changed (docs/publishing.md, *The site's build*). */
  | { type: 'ArticleBuildObserved'; data: { articleId: string; build: Build; at: string } }
  /** A failing build pointed at Inkstream's file and the file rendered with the re-learned profile differs. */
  | {
      type: 'ArticleBuildCorrectionProposed';
      data: { articleId: string; path: string; reason: string; headSha: string; at: string };
    }
  /** A person (or the project's publishing.autoCorrect) asked for the proposed correction to be committed. */
  | {
      type: 'ArticleBuildCorrectionApplyRequested';
      data: { articleId: string; auto: boolean; at: string };
    }
  /** The corrected file was committed to the pull request's branch: the new head. */
  | {
      type: 'ArticleBuildCorrectionApplied';
      data: { articleId: string; path: string; commitSha: string; at: string };
    };

/** Every type of ArticleEvent, as data: a read model skips (and logs) a type it does not know. */
export const ARTICLE_EVENTS: EventNames<ArticleEvent> = {
  ArticleQueued: true,
  ArticleResearchStarted: true,
  ArticleResearched: true,
  ArticleDrafted: true,
  ArticleFailed: true,
  ArticleRetried: true,
  ArticleRevisionRequested: true,
  ArticleRevised: true,
  ArticleRevisionFailed: true,
  ArticlePublishRequested: true,
  ArticlePublishTargetChosen: true,
  ArticlePullRequestOpened: true,
  ArticleRevisionCommitted: true,
  ArticleMerged: true,
  ArticleClosed: true,
  ArticleRefreshRequested: true,
  ArticleSearchMetricsUpdated: true,
  ArticleStepRecorded: true,
  ArticleWaitingForBudget: true,
  ArticleResumed: true,
  ArticleBuildObserved: true,
  ArticleBuildCorrectionProposed: true,
  ArticleBuildCorrectionApplyRequested: true,
  ArticleBuildCorrectionApplied: true,
};

export type Revision = {
  revisionId: string;
  instruction: string;
  source: RevisionSource;
  requestedAt: string;
};

export type ActiveArticle = {
  status: ArticleStatus;
  id: string;
  projectId: string;
  topicId: string;
  title: string;
  keyword: string | null;
  brief: string | null;
  slug: string | null;
  version: number;
  mdx: string | null;
  outline: OutlineSection[];
  sources: Source[];
  cover: Cover | null;
  purpose: 'write' | 'refresh';
  publishMode: 'pr' | 'direct' | null;
  pr: { number: number; url: string; branch: string } | null;
  path: string | null;
  /** Revisions wait here in order; one applies at a time. */
  pendingRevisions: Revision[];
  failure: { step: ArticleStatus; reason: string } | null;
  refreshCount: number;
  /** The model's claims with their sources (from the draft), and the quality gate's latest verdicts. */
  claims: Claim[];
  checks: QualityCheck[];
  /** The search-analytics sync that last recorded figures, so a re-run of it records nothing twice. */
  lastSearchSyncId?: string;
  /** Set while the next step waits for a budget; any step taken or a resume clears it. */
  waitingFor?: WaitingFor | null;
  /** The commit at the head of the article's pull request (absent before it was recorded). */
  headSha?: string | null;
  /** The site's build of `headSha`, as last observed; null until it was read. */
  build?: Build | null;
  /** The latest correction of a failing build (docs/publishing.md, *The site's build*); absent before one. */
  buildCorrection?: BuildCorrection | null;
};
export type Article = { status: 'none' } | ActiveArticle;

export const ARTICLE_CATEGORY = 'article';

/** The operations a user (or GitHub) may start, and the states each is allowed from. */
export const allowedFrom = {
  approve: ['draft'],
  revise: ['draft', 'pr_open'],
  refresh: ['merged'],
  retry: ['failed'],
} as const satisfies Record<string, readonly ArticleStatus[]>;

/** Every transition the pipeline makes: from → to. Anything else is a bug, and refused. */
export const articleTransitions = {
  queued: ['researching', 'failed'],
  researching: ['writing', 'failed'],
  writing: ['draft', 'publishing', 'failed'],
  draft: ['publishing', 'failed'],
  publishing: ['pr_open', 'merged', 'failed'],
  pr_open: ['merged', 'closed', 'failed'],
  merged: ['researching'],
  closed: [],
  failed: ['queued', 'researching', 'writing', 'publishing'],
} as const satisfies Record<ArticleStatus, readonly ArticleStatus[]>;

export const initialArticle = (): Article => ({ status: 'none' });

/** Events that mean the article moved on, or will be checked again: it no longer waits. */
export const ENDS_BUDGET_WAIT: ReadonlySet<string> = new Set<ArticleEvent['type']>([
  'ArticleResumed',
  'ArticleResearchStarted',
  'ArticleResearched',
  'ArticleDrafted',
  'ArticleFailed',
  'ArticleRetried',
  'ArticleRevised',
  'ArticleRevisionFailed',
]);

export function evolveArticle(state: Article, event: ArticleEvent): Article {
  const next = evolveStatus(state, event);
  if (next.status === 'none') return next;
  if (event.type === 'ArticleWaitingForBudget')
    return { ...next, waitingFor: event.data.waitingFor };
  return next.waitingFor && ENDS_BUDGET_WAIT.has(event.type) ? { ...next, waitingFor: null } : next;
}

function evolveStatus(state: Article, event: ArticleEvent): Article {
  if (event.type === 'ArticleQueued') {
    const { articleId, topicId, projectId, title, keyword, brief } = event.data;
    return {
      status: 'queued',
      id: articleId,
      projectId,
      topicId,
      title,
      keyword,
      brief,
      slug: null,
      version: 0,
      mdx: null,
      outline: [],
      sources: [],
      cover: null,
      purpose: 'write',
      publishMode: null,
      pr: null,
      path: null,
      pendingRevisions: [],
      failure: null,
      refreshCount: 0,
      claims: [],
      checks: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ArticleResearchStarted':
      return { ...state, status: 'researching', purpose: event.data.purpose };
    case 'ArticleResearched':
      return {
        ...state,
        status: 'writing',
        outline: event.data.outline,
        sources: event.data.sources,
      };
    case 'ArticleDrafted': {
      const { version, mdx, slug, title, cover, claims = [], checks = [] } = event.data;
      return {
        ...state,
        status: event.data.purpose === 'refresh' ? 'writing' : 'draft',
        version,
        mdx,
        slug,
        title,
        cover,
        claims,
        checks,
        failure: null,
      };
    }
    case 'ArticleFailed':
      return {
        ...state,
        status: 'failed',
        failure: { step: event.data.step, reason: event.data.reason },
      };
    case 'ArticleRetried':
      return { ...state, status: event.data.step, failure: null };
    case 'ArticleRevisionRequested': {
      const { revisionId, instruction, source, at } = event.data;
      return {
        ...state,
        pendingRevisions: [
          ...state.pendingRevisions,
          { revisionId, instruction, source, requestedAt: at },
        ],
      };
    }
    case 'ArticleRevised':
      return {
        ...state,
        version: event.data.version,
        mdx: event.data.mdx,
        checks: event.data.checks ?? state.checks,
        pendingRevisions: withoutRevision(state, event.data.revisionId),
      };
    case 'ArticleRevisionFailed':
      return { ...state, pendingRevisions: withoutRevision(state, event.data.revisionId) };
    case 'ArticlePublishRequested':
      return { ...state, status: 'publishing', publishMode: event.data.mode, failure: null };
    case 'ArticlePullRequestOpened': {
      const { prNumber, prUrl, branch, path, commitSha } = event.data;
      return {
        ...state,
        status: 'pr_open',
        pr: { number: prNumber, url: prUrl, branch },
        path,
        headSha: commitSha,
        build: null,
      };
    }
    case 'ArticleRevisionCommitted':
      return event.data.commitSha === state.headSha
        ? state
        : {
            ...state,
            headSha: event.data.commitSha,
            build: null,
            // A proposal was for the file the revision replaced.
            buildCorrection:
              state.buildCorrection?.state === 'applied' ? state.buildCorrection : null,
          };
    case 'ArticleBuildObserved':
      return { ...state, build: event.data.build };
    case 'ArticleBuildCorrectionProposed': {
      const { path, reason, headSha, at } = event.data;
      return {
        ...state,
        buildCorrection: { state: 'proposed', path, reason, headSha, commitSha: null, at },
      };
    }
    case 'ArticleBuildCorrectionApplyRequested':
      return state.buildCorrection
        ? { ...state, buildCorrection: { ...state.buildCorrection, state: 'applying' } }
        : state;
    case 'ArticleBuildCorrectionApplied':
      return {
        ...state,
        headSha: event.data.commitSha,
        build: event.data.commitSha === state.headSha ? state.build : null,
        buildCorrection: state.buildCorrection
          ? {
              ...state.buildCorrection,
              state: 'applied',
              commitSha: event.data.commitSha,
              at: event.data.at,
            }
          : null,
      };
    case 'ArticleMerged':
      return { ...state, status: 'merged', path: event.data.path };
    case 'ArticleClosed':
      return { ...state, status: 'closed' };
    case 'ArticleRefreshRequested':
      return {
        ...state,
        status: 'researching',
        purpose: 'refresh',
        refreshCount: state.refreshCount + 1,
      };
    case 'ArticleSearchMetricsUpdated':
      return { ...state, lastSearchSyncId: event.data.syncId };
    default:
      return state;
  }
}

const withoutRevision = (state: ActiveArticle, revisionId: string) =>
  state.pendingRevisions.filter((revision) => revision.revisionId !== revisionId);

/**
 * The slug in a post's path: its file name without the extension, or its folder's for a folder per
 * post (`x/index.md`). It differs from the draft's slug after a collision; publishing prefers the
 * slug recorded with the path (`committedSlug`).
 */
export const slugOfPath = (path: string): string => {
  const parts = path.split('/');
  const name = parts.at(-1)!.replace(/\.(?:mdx|md|markdown)$/, '');
  return name === 'index' && parts.length > 1 ? parts.at(-2)! : name;
};

/** Where a site serves an article's cover; the publisher commits the PNG (GET /articles/:id/cover) there. */
export const coverSitePath = (slug: string): string => `/images/covers/${slug}.png`;
