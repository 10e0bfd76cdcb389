import { z } from 'zod';
import { emptyUsage, type ArticleDoc } from '../../../projections/articles.ts';
import { Budget } from '../../domain/accounts/budget.ts';
import { present } from '../../http/resources.ts';
import { searchMetricsField } from '../searchAnalytics/schemas.ts';
import { DecayNote, decayField } from '../searchAnalytics/decaySchemas.ts';
import { ARTICLE_STATUSES } from '../../domain/articles/article.ts';
import { CHECK_NAMES } from '../../domain/articles/quality.ts';

const Status = z.enum(ARTICLE_STATUSES);
const Failure = z.object({ step: Status, reason: z.string() }).nullable();

const ModelStep = z
  .object({
    step: z.enum(['research', 'draft', 'refresh_research', 'refresh_draft', 'revision']),
    outcome: z.enum(['done', 'failed']),
    provider: z.string(),
    model: z.string().nullable(),
    tokensIn: z.number().int(),
    tokensOut: z.number().int(),
    durationMs: z.number().int(),
    attempts: z
      .number()
      .int()
      .describe(
        'Requests sent to the model provider for the step: retries, 429s waited out and repair requests included; 0 for the offline writer',
      ),
    costUsd: z
      .number()
      .nullable()
      .describe('Estimated from the price table; null when the model has no price'),
    startedAt: z.string(),
  })
  .meta({ id: 'ModelStep' });
const UsageTotals = z
  .object({
    tokensIn: z.number().int(),
    tokensOut: z.number().int(),
    costUsd: z
      .number()
      .nullable()
      .describe('The estimated cost of the priced steps; null while no step had a price'),
  })
  .meta({ id: 'ArticleUsageTotals' });
const ArticleUsage = UsageTotals.extend({ steps: z.array(ModelStep) }).meta({ id: 'ArticleUsage' });
const WaitingFor = z
  .object({
    reason: z.literal('budget'),
    scope: z.enum(['account', 'project']),
    step: z
      .enum(['start', 'research', 'write', 'revision'])
      .describe('start: the article stays queued; revision: a requested revision stays pending'),
    month: z.string(),
    budget: Budget,
    spent: z.object({ tokens: z.number().int(), costUsd: z.number() }),
    since: z.string(),
  })
  .nullable()
  .describe(
    'Set while the next step waits for a spent monthly budget; raising the budget (or a new month) resumes it',
  )
  .meta({ id: 'WaitingFor' });

const BuildCheck = z
  .object({
    name: z.string(),
    state: z.enum(['pending', 'success', 'failure', 'neutral']),
    url: z.string().nullable().describe('The check on GitHub or the CI (https only)'),
    detail: z
      .string()
      .nullable()
      .describe(
        "A failed check's failing annotations or the summary GitHub gives, as text the site's CI wrote",
      ),
  })
  .meta({ id: 'BuildCheck' });
export const SiteBuild = z
  .object({
    state: z.enum(['pending', 'success', 'failure', 'none', 'unknown']),
    checks: z.array(BuildCheck),
    previewUrl: z
      .string()
      .nullable()
      .describe("The newest successful deployment's environment URL (the site's preview)"),
    reason: z
      .string()
      .nullable()
      .describe(
        "Why the state is unknown (what the credential may not read), or which failing annotations point at Inkstream's file",
      ),
    headSha: z.string().describe('The pull request head commit this build is of'),
  })
  .nullable()
  .describe(
    "The site's own build of the pull request's head commit (check runs, commit statuses, deployments; never Inkstream's inkstream/quality status): null until it was read (docs/publishing.md, The site's build)",
  )
  .meta({ id: 'SiteBuild' });

/**
 * A list item: status, PR info and timing. Search metrics join it (as `searchMetrics`) for
 * projects with a search-analytics connection; the item is an object so that field can be added.
 */
export const ArticleSummary = z
  .object({
    id: z.string(),
    projectId: z.string(),
    topicId: z.string(),
    status: Status,
    title: z.string(),
    slug: z.string().nullable(),
    keyword: z.string().nullable(),
    prUrl: z.string().nullable(),
    prNumber: z.number().int().nullable(),
    version: z.number().int(),
    failure: Failure,
    createdAt: z.string(),
    updatedAt: z.string(),
    publishedAt: z.string().nullable(),
    usage: UsageTotals,
    waitingFor: WaitingFor,
    searchMetrics: searchMetricsField,
    build: SiteBuild,
  })
  .meta({ id: 'ArticleSummary' });

const Generation = z.object({
  provider: z.string(),
  model: z.string().nullable(),
  usage: z.object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    totalTokens: z.number(),
  }),
});
const Neutralised = z.object({
  kind: z.enum(['esm', 'jsx', 'expression', 'invalid']),
  excerpt: z.string(),
  field: z.enum(['body', 'title', 'description']),
});
const CheckFinding = z
  .object({
    text: z
      .string()
      .describe(
        "The sentence, heading, link text or term found (may quote the model's or the site's text)",
      ),
    start: z
      .number()
      .int()
      .nullable()
      .describe(
        'Offset in `body` where it starts; null when it is not in the body (the title, a missing heading)',
      ),
    end: z.number().int().nullable().describe('Offset in `body` where it ends (exclusive)'),
    note: z.string(),
    source: z
      .object({ url: z.string(), passage: z.string() })
      .nullable()
      .optional()
      .describe('Grounding: the passage the claim was checked against'),
  })
  .meta({ id: 'CheckFinding' });
export const QualityCheck = z
  .object({
    name: z.enum(CHECK_NAMES),
    status: z.enum(['pass', 'warn', 'fail']),
    message: z.string(),
    details: z.array(CheckFinding),
  })
  .meta({ id: 'QualityCheck' });
const Cover = z.object({
  title: z.string(),
  palette: z.object({
    primary: z.string(),
    accent: z.string(),
    background: z.string(),
    text: z.string(),
  }),
  style: z.object({ mood: z.string(), shapes: z.string(), typography: z.string() }),
});

/** The full article: MDX `content` as committed, and the same split into `frontmatter` and `body`. */
export const ArticleBody = ArticleSummary.extend({
  content: z.string().nullable(),
  frontmatter: z.record(z.string(), z.unknown()).nullable(),
  body: z.string().nullable(),
  wordCount: z.number().int(),
  sources: z.array(z.object({ url: z.string(), title: z.string() })),
  cover: Cover.nullable(),
  generation: Generation.nullable(),
  branch: z.string().nullable(),
  path: z.string().nullable(),
  publishMode: z.enum(['pr', 'direct']).nullable(),
  pendingRevisions: z.number().int(),
  lastRevisionSummary: z.string().nullable(),
  usage: ArticleUsage,
  checks: z
    .array(QualityCheck)
    .describe(
      'The quality gate on the current version: grounding, brand rules, length, keyword, headings, clichés, links, neutralised code (docs/content-quality.md). Empty for articles drafted before the gate existed',
    ),
  revisionFailure: z
    .object({ revisionId: z.string(), reason: z.string(), at: z.string() })
    .nullable()
    .describe(
      'Why the latest revision was not applied (the article kept its previous version); null once a later revision applies',
    ),
  neutralised: z
    .array(Neutralised)
    .describe(
      "Model text MDX would have run (import/export, JSX, expressions), kept in the article as literal text: the draft's, then each revision's",
    ),
  decay: decayField,
  refreshDecay: DecayNote.nullable().describe(
    'The decay finding the latest refresh was started on (it is in the webhook payload of the refresh); null without one',
  ),
  buildCorrection: z
    .object({
      state: z.enum(['proposed', 'applying', 'applied']),
      path: z.string().describe("The file the correction rewrites: the article's committed path"),
      reason: z.string(),
      headSha: z.string().describe('The head commit whose failing build it corrects'),
      commitSha: z.string().nullable().describe('The commit that applied it; null until then'),
      at: z.string(),
    })
    .nullable()
    .describe(
      "A corrected file for a site build that rejected Inkstream's file, rendered with the content profile learned again: proposed (POST /articles/:id/build/correction/apply commits it; the project's settings.publishing.autoCorrect does so at once), applying, or applied. Null without one (docs/publishing.md, The site's build)",
    )
    .meta({ id: 'BuildCorrection' }),
}).meta({ id: 'Article' });

export function presentArticle(doc: ArticleDoc) {
  const {
    accountId: _accountId,
    createdMonth: _createdMonth,
    waiting: _waiting,
    headSha: _headSha,
    ...rest
  } = present(doc);
  return {
    ...rest,
    build: doc.build ?? null,
    revisionFailure: doc.revisionFailure ?? null,
    neutralised: doc.neutralised ?? [],
    checks: doc.checks ?? [],
    usage: doc.usage ?? emptyUsage(),
    waitingFor: doc.waitingFor ?? null,
    refreshDecay: doc.refreshDecay ?? null,
    buildCorrection: doc.buildCorrection ?? null,
  };
}

export function presentArticleSummary(doc: ArticleDoc): z.infer<typeof ArticleSummary> {
  const {
    id,
    projectId,
    topicId,
    status,
    title,
    slug,
    keyword,
    prUrl,
    prNumber,
    version,
    failure,
    createdAt,
    updatedAt,
    publishedAt,
  } = doc;
  const { tokensIn, tokensOut, costUsd } = doc.usage ?? emptyUsage();
  return {
    id,
    projectId,
    topicId,
    status,
    title,
    slug,
    keyword,
    prUrl,
    prNumber,
    version,
    failure,
    createdAt,
    updatedAt,
    publishedAt,
    usage: { tokensIn, tokensOut, costUsd },
    waitingFor: doc.waitingFor ?? null,
    build: doc.build ?? null,
  };
}
