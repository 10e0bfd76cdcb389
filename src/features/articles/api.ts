import { z } from 'zod';
import { ownedProject } from '../projects/owned.ts';
import { articles, type ArticleDoc } from '../../../projections/articles.ts';
import { articleAt } from './articleAt.ts';
import { route, type RouteInput } from '../../http/route.ts';
import { applyAppended, commandContext, ownedDoc } from '../../http/resources.ts';
import { idOf, listOf, Pagination } from '../../http/schemas.ts';
import { allowedFrom, ARTICLE_STATUSES } from '../../domain/articles/article.ts';
import { articleStream, requireStatus, type ArticleCommand } from '../../domain/articles/decide.ts';
import { searchMetricsOf, withSearchMetrics } from '../searchAnalytics/articleMetrics.ts';
import { decayOf } from '../searchAnalytics/decayApi.ts';
import { requireSiteFile, resolvePublishMode } from './publishMode.ts';
import { articleResponseCache } from './responseCache.ts';
import { ArticleBody, ArticleSummary, presentArticle, presentArticleSummary } from './schemas.ts';

const ProjectId = idOf('prj');
const ArticleId = idOf('art');
const ArticleResponse = z.object({ article: ArticleBody });

const Revision = z
  .object({
    id: z.string(),
    articleId: z.string(),
    status: z.literal('queued'),
    instruction: z.string(),
    requestedAt: z.string(),
  })
  .meta({ id: 'Revision' });

type ArticleInput = RouteInput<{ id: string }, unknown, unknown>;

const ownedArticle = (input: ArticleInput) =>
  ownedDoc<ArticleDoc>(
    input.platform.readStore,
    'articles',
    input.params.id,
    input.auth,
    'article',
  );

/** Runs an article command for the route and answers with the article folded from what it appended. */
async function runArticleCommand(input: ArticleInput, doc: ArticleDoc, command: ArticleCommand) {
  const result = await input.platform.commands.execute(
    articleStream,
    doc.id,
    command,
    commandContext(input),
  );
  return {
    status: 202,
    body: { article: presentArticle(applyAppended(articles, doc, result.events)!) },
  };
}

export const articleRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/articles',
    tag: 'Articles',
    summary: "List a project's articles, newest first, with status and PR info",
    params: z.object({ id: ProjectId }),
    query: z.object({ status: z.enum(ARTICLE_STATUSES).optional(), ...Pagination }),
    responses: { 200: listOf('articles', ArticleSummary) },
    errors: [404],
    async handle({ params, query, auth, platform }) {
      await ownedProject({ platform, auth }, params.id);
      const page = await platform.readStore.find<ArticleDoc>('articles', {
        filter: { projectId: params.id, ...(query.status ? { status: query.status } : {}) },
        sort: { field: 'createdAt', direction: 'desc' },
        limit: query.limit,
        cursor: query.cursor,
      });
      const metrics = await searchMetricsOf(
        platform,
        params.id,
        page.items.map((doc) => doc.id),
        { queries: false },
      );
      return {
        status: 200,
        body: {
          articles: page.items.map((doc) =>
            withSearchMetrics(presentArticleSummary(doc), metrics, doc.id),
          ),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/articles/:id',
    tag: 'Articles',
    summary: 'Read an article with its MDX content and frontmatter',
    params: z.object({ id: ArticleId }),
    query: z.object({
      at: z
        .string()
        .max(40)
        .optional()
        .describe(
          'A revision (0, 1, …) or an ISO 8601 time: the article as it was then, replayed from its events',
        ),
    }),
    responses: { 200: ArticleResponse },
    errors: [404],
    async handle(input) {
      const { query, auth, platform, consistency } = input;
      if (query.at !== undefined) {
        return {
          status: 200,
          body: {
            article: presentArticle(
              await articleAt(platform.eventStore, await ownedArticle(input), query.at),
            ),
          },
        };
      }
      const cache = articleResponseCache(platform);
      const current = {
        head: consistency.head,
        readModelsCurrent: await consistency.readModelsCurrent(),
      };
      const cached = cache.get(input.params.id, auth.accountId, current);
      if (cached) return { status: 200, json: cached };
      const doc = await ownedArticle(input);
      const metrics = await searchMetricsOf(platform, doc.projectId, [doc.id], { queries: true });
      const decay = await decayOf(platform, doc.projectId, doc.id);
      const article = withSearchMetrics(presentArticle(doc), metrics, doc.id);
      const json = Buffer.from(
        JSON.stringify({ article: decay ? { ...article, decay: decay.finding } : article }),
      );
      cache.set(input.params.id, auth.accountId, current, json);
      return { status: 200, json };
    },
  }),
  route({
    method: 'post',
    path: '/articles/:id/revise',
    tag: 'Articles',
    summary: 'Queue an AI revision of a draft or open pull request',
    params: z.object({ id: ArticleId }),
    body: z.object({ instruction: z.string().trim().min(1).max(4000) }).strict(),
    responses: { 202: z.object({ revision: Revision }) },
    errors: [404, 409],
    async handle(input) {
      const { body, platform } = input;
      const doc = await ownedArticle(input);
      const revisionId = platform.ids.next('rev');
      const at = platform.clock.now();
      await platform.commands.execute(
        articleStream,
        doc.id,
        {
          type: 'RequestRevision',
          revisionId,
          instruction: body.instruction,
          source: { kind: 'api' },
          at,
        },
        commandContext(input),
      );
      return {
        status: 202,
        body: {
          revision: {
            id: revisionId,
            articleId: doc.id,
            status: 'queued',
            instruction: body.instruction,
            requestedAt: at,
          },
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/articles/:id/approve',
    tag: 'Articles',
    summary: 'Publish a draft: a pull request, or a direct push where the project uses one',
    params: z.object({ id: ArticleId }),
    responses: { 202: ArticleResponse },
    errors: [402, 404, 409],
    async handle(input) {
      const doc = await ownedArticle(input);
      requireStatus(doc, allowedFrom.approve, 'approve');
      const project = await ownedProject(input, doc.projectId);
      const mode = await resolvePublishMode(input.platform, input.auth, project);
      await requireSiteFile(input.platform, project.id, doc.id);
      return runArticleCommand(input, doc, {
        type: 'ApproveArticle',
        mode,
        qualityGate: project.settings.qualityGate ?? 'warn',
        at: input.platform.clock.now(),
      });
    },
  }),
  route({
    method: 'post',
    path: '/articles/:id/refresh',
    tag: 'Articles',
    summary: 'Refresh a published (merged) article through a new pull request',
    params: z.object({ id: ArticleId }),
    responses: { 202: ArticleResponse },
    errors: [404, 409],
    async handle(input) {
      const doc = await ownedArticle(input);
      const finding = (await decayOf(input.platform, doc.projectId, doc.id))?.finding;
      return runArticleCommand(input, doc, {
        type: 'RefreshArticle',
        refreshId: input.platform.ids.next('run'),
        at: input.platform.clock.now(),
        ...(finding?.verdict === 'decaying'
          ? {
              decay: {
                verdict: finding.verdict,
                severity: finding.severity,
                signals: finding.signals,
                history: finding.history,
                assessedAt: finding.assessedAt,
              },
            }
          : {}),
      });
    },
  }),
  route({
    method: 'post',
    path: '/articles/:id/retry',
    tag: 'Articles',
    summary: 'Retry a failed article from the step that failed',
    params: z.object({ id: ArticleId }),
    responses: { 202: ArticleResponse },
    errors: [404, 409],
    async handle(input) {
      const doc = await ownedArticle(input);
      return runArticleCommand(input, doc, {
        type: 'RetryArticle',
        at: input.platform.clock.now(),
      });
    },
  }),
  route({
    method: 'post',
    path: '/articles/:id/build/correction/apply',
    tag: 'Articles',
    summary:
      "Commit the proposed correction of a file the site's build rejected to the pull request's branch",
    params: z.object({ id: ArticleId }),
    responses: { 202: ArticleResponse },
    errors: [404, 409],
    async handle(input) {
      const doc = await ownedArticle(input);
      return runArticleCommand(input, doc, {
        type: 'ApplyBuildCorrection',
        auto: false,
        at: input.platform.clock.now(),
      });
    },
  }),
];
