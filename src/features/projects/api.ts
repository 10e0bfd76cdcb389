import { z } from 'zod';
import { ownedProject } from './owned.ts';
import { CorpusProgress, corpusProgress } from '../pipeline/corpus/progress.ts';
import {
  ArticleCountsBody,
  noCounts,
  projectCountsOf,
  TopicCountsBody,
  type ProjectCounts,
} from './counts.ts';
import { releaseSlot, takeSlot } from '../accounts/planLimits.ts';
import { NO_INTEGRATIONS } from '../../../projections/integrations.ts';
import { projects, type ProjectDoc } from '../../../projections/projects.ts';
import { route } from '../../http/route.ts';
import { applyAppended, commandContext, present } from '../../http/resources.ts';
import { idOf, listOf, Pagination, WebUrl } from '../../http/schemas.ts';
import { requireReachableUrl } from '../../integrations/safeHttp/registration.ts';
import { BrandProfile } from '../../domain/projects/brand.ts';
import { allowedModels, modelToUse } from '../../integrations/llm/modelAllowList.ts';
import { llmConfigOf, writerState, type LlmSettings } from '../../integrations/llm/select.ts';
import { SEARCH_PROVIDER } from '../../domain/searchAnalytics/searchAnalytics.ts';
import { projectStream } from '../../domain/projects/decide.ts';
import {
  DEFAULT_SETTINGS,
  Settings,
  SettingsPatch,
  mergeSettings,
  requireAllowedModel,
  type ModelConfig,
} from '../../domain/projects/settings.ts';

const ProjectId = idOf('prj');

export const ProjectBody = z
  .object({
    id: z.string(),
    name: z.string(),
    websiteUrl: z.string(),
    blogUrl: z.string().nullable(),
    sitemapUrl: z.string().nullable(),
    paused: z.boolean(),
    settings: Settings,
    crawl: z.object({
      status: z.enum(['pending', 'done', 'failed']),
      crawlId: z.string().nullable(),
      requestedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      failureReason: z.string().nullable(),
      pagesCrawled: z.number(),
      voiceFallbackReason: z
        .string()
        .nullable()
        .describe(
          'Why the finished crawl kept the voice measured from the site although a model is set up (the model failed, e.g. answered 401); null otherwise',
        ),
    }),
    brand: BrandProfile.nullable(),
    brandEditedParts: z.array(z.string()),
    research: z
      .object({
        runId: z.string(),
        status: z.enum(['running', 'done', 'failed']),
        failureReason: z.string().nullable(),
        topicIds: z.array(z.string()),
      })
      .nullable(),
    integrations: z
      .object({
        github: z
          .object({
            repository: z.string(),
            publishMode: z.enum(['pr', 'direct']),
            credentials: z.enum(['token', 'app']),
          })
          .nullable(),
        postPublishHook: z.object({ url: z.string() }).nullable(),
        searchAnalytics: z
          .object({
            provider: z.literal(SEARCH_PROVIDER),
            property: z.string(),
            status: z.enum(['ok', 'broken']),
            credentials: z.enum(['oauth', 'service_account']),
            lastSync: z
              .object({
                id: z.string(),
                status: z.enum(['running', 'completed', 'failed', 'broken']),
                requestedAt: z.string(),
                finishedAt: z.string().nullable(),
              })
              .nullable(),
          })
          .nullable(),
      })
      .describe(
        'Which integrations are set and whether they work; details at /projects/:id/integrations/…',
      ),
    articleCounts: ArticleCountsBody,
    topicCounts: TopicCountsBody,
    createdAt: z.string(),
    updatedAt: z.string(),
    corpus: CorpusProgress.nullable()
      .optional()
      .describe(
        'The corpus crawl of every page (GET /projects/:id only): counts, an estimate and its notes; null before the first run',
      ),
    writer: z
      .object({
        writer: z.enum(['model', 'offline']),
        model: z.string().nullable(),
      })
      .optional()
      .describe(
        "Who writes this project's drafts (GET /projects/:id only): the model, named by the project's setting or else the server's default, or the offline writer (no OPENAI_API_KEY: drafts are briefs), with model null",
      ),
  })
  .meta({ id: 'Project' });

const ProjectResponse = z.object({ project: ProjectBody });

function presentProject(doc: ProjectDoc, counts: ProjectCounts) {
  const { accountId: _accountId, lastBrandCrawl: _lastBrandCrawl, ...rest } = present(doc);
  return {
    ...rest,
    crawl: { ...rest.crawl, voiceFallbackReason: doc.crawl.voiceFallbackReason ?? null },
    integrations: { ...NO_INTEGRATIONS, ...doc.integrations },
    ...counts,
  };
}

/**
 * The writer this server runs for a project: the model its settings name while the allow-list
 * still has it, else the server's default (what the pipeline calls, modelToUse); or offline.
 */
function projectWriter(doc: ProjectDoc, config: LlmSettings & ModelConfig) {
  const state = writerState(llmConfigOf(config));
  if (state.writer === 'offline' || state.model === null) return state;
  const allowed = allowedModels(state.model, config.INKSTREAM_ALLOWED_MODELS);
  return {
    writer: state.writer,
    model: modelToUse(doc.settings.model, state.model, allowed).model,
  };
}

/** One project as the API shows it, with its article and topic counts. */
async function presentOne(readStore: Parameters<typeof projectCountsOf>[0], doc: ProjectDoc) {
  return presentProject(doc, (await projectCountsOf(readStore, [doc.id])).get(doc.id)!);
}

const CreateProject = z
  .object({
    name: z.string().trim().min(1).max(200),
    websiteUrl: WebUrl,
    blogUrl: WebUrl.optional(),
    sitemapUrl: WebUrl.optional(),
    settings: SettingsPatch.optional(),
  })
  .strict();

const UpdateProject = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    paused: z.boolean().optional(),
    settings: SettingsPatch.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'send at least one of name, paused, settings');

export const projectRoutes = [
  route({
    method: 'get',
    path: '/projects',
    tag: 'Projects',
    summary: 'List projects',
    query: z.object(Pagination),
    responses: { 200: listOf('projects', ProjectBody) },
    async handle({ query, auth, platform }) {
      const page = await platform.readStore.find<ProjectDoc>('projects', {
        filter: { accountId: auth.accountId },
        sort: { field: 'createdAt', direction: 'desc' },
        limit: query.limit,
        cursor: query.cursor,
      });
      const counts = await projectCountsOf(
        platform.readStore,
        page.items.map((doc) => doc.id),
      );
      return {
        status: 200,
        body: {
          projects: page.items.map((doc) => presentProject(doc, counts.get(doc.id)!)),
          nextCursor: page.nextCursor,
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/projects',
    tag: 'Projects',
    summary: 'Create a project; its brand crawl starts immediately',
    body: CreateProject,
    responses: { 201: ProjectResponse },
    errors: [402],
    async handle(input) {
      const { body, auth, platform } = input;
      requireAllowedModel(body.settings?.model, platform.config);
      for (const field of ['websiteUrl', 'blogUrl', 'sitemapUrl'] as const) {
        const url = body[field];
        if (url !== undefined) await requireReachableUrl(platform.destinations, url, field);
      }
      const projectId = platform.ids.next('prj');
      const at = platform.clock.now();
      // The cap first, as a slot of the account's project ledger: 402 before anything is written.
      const slot = await takeSlot(
        platform,
        'project',
        { accountId: auth.accountId, plan: auth.plan, holderId: projectId, at },
        commandContext(input, `slot:${projectId}`),
      );
      const result = await platform.commands
        .execute(
          projectStream,
          projectId,
          {
            type: 'CreateProject',
            projectId,
            accountId: auth.accountId,
            name: body.name,
            websiteUrl: body.websiteUrl,
            blogUrl: body.blogUrl ?? null,
            sitemapUrl: body.sitemapUrl ?? null,
            settings: mergeSettings(DEFAULT_SETTINGS, body.settings ?? {}),
            crawlId: platform.ids.next('crl'),
            at,
          },
          commandContext(input),
          { newStream: true },
        )
        .catch(async (error: unknown) => {
          await releaseSlot(
            platform,
            slot,
            `the project was not created: ${(error as Error).message}`,
            commandContext(input, `slot-release:${projectId}`),
          ).catch((releaseError) =>
            platform.logger.error(
              { err: releaseError, projectId },
              'a project slot could not be given back',
            ),
          );
          throw error;
        });
      const doc = applyAppended(projects, null, result.events)!;
      return {
        status: 201,
        body: { project: presentProject(doc, noCounts()) },
        headers: { Location: `/api/v1/projects/${projectId}` },
      };
    },
  }),
  route({
    method: 'get',
    path: '/projects/:id',
    tag: 'Projects',
    summary: 'Read a project with its brand profile',
    params: z.object({ id: ProjectId }),
    responses: { 200: ProjectResponse },
    errors: [404],
    async handle({ params, auth, platform }) {
      const doc = await ownedProject({ platform, auth }, params.id);
      const run = platform.siteCorpus().run(doc.id);
      const corpus = run ? corpusProgress(run, platform.clock.nowMs()) : null;
      return {
        status: 200,
        body: {
          project: {
            ...(await presentOne(platform.readStore, doc)),
            corpus,
            writer: projectWriter(doc, platform.config),
          },
        },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/projects/:id',
    tag: 'Projects',
    summary: 'Rename, pause/resume, or change settings (model, cadence, covers)',
    params: z.object({ id: ProjectId }),
    body: UpdateProject,
    responses: { 200: ProjectResponse },
    errors: [404, 409],
    async handle(input) {
      const { params, body, auth, platform } = input;
      const doc = await ownedProject({ platform, auth }, params.id);
      requireAllowedModel(body.settings?.model, platform.config);
      const result = await platform.commands.execute(
        projectStream,
        params.id,
        { type: 'UpdateProject', ...body, at: platform.clock.now() },
        commandContext(input),
      );
      return {
        status: 200,
        body: {
          project: await presentOne(
            platform.readStore,
            applyAppended(projects, doc, result.events)!,
          ),
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/projects/:id/crawl',
    tag: 'Projects',
    summary: 'Re-crawl the site and re-learn voice, facts and cover palette',
    params: z.object({ id: ProjectId }),
    body: z
      .object({ overwriteEditedParts: z.boolean().default(false) })
      .strict()
      .optional(),
    responses: { 202: ProjectResponse },
    errors: [404],
    async handle(input) {
      const { params, body, auth, platform } = input;
      const doc = await ownedProject({ platform, auth }, params.id);
      const result = await platform.commands.execute(
        projectStream,
        params.id,
        {
          type: 'RequestCrawl',
          crawlId: platform.ids.next('crl'),
          overwriteEdited: body?.overwriteEditedParts ?? false,
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      return {
        status: 202,
        body: {
          project: await presentOne(
            platform.readStore,
            applyAppended(projects, doc, result.events)!,
          ),
        },
      };
    },
  }),
  // Model use and budgets (features/usage): a project's month beside the project.
];
