import { z } from 'zod';
import { ownedProject, requireOwnedProject } from '../projects/owned.ts';
import { projects } from '../../../projections/projects.ts';
import { topics, type TopicDoc } from '../../../projections/topics.ts';
import { ArticleBody, presentArticle } from '../articles/schemas.ts';
import { route } from '../../http/route.ts';
import { applyAppended, commandContext, ownedDoc, present } from '../../http/resources.ts';
import { idOf, IsoTime, listOf, Pagination } from '../../http/schemas.ts';
import { projectStream } from '../../domain/projects/decide.ts';
import { topicStream } from '../../domain/topics/decide.ts';
import { DEFAULT_PRIORITY, TOPIC_STATUSES } from '../../domain/topics/topic.ts';
import { overlapOf } from './overlap.ts';
import { writeTopic } from './writeTopic.ts';

const ProjectId = idOf('prj');
const TopicId = idOf('tpc');

/** Set on a topic added by hand that competes with a page of the site or a published article (docs/content-quality.md). */
const TopicOverlapBody = z
  .object({
    url: z.string(),
    title: z.string(),
    source: z.enum(['site', 'article']),
    articleId: z.string().nullable(),
    advice: z.string(),
  })
  .meta({ id: 'TopicOverlap' });

export const TopicBody = z
  .object({
    id: z.string(),
    projectId: z.string(),
    title: z.string(),
    keyword: z.string().nullable(),
    brief: z.string().nullable(),
    status: z.enum(TOPIC_STATUSES),
    scheduledFor: z.string().nullable(),
    priority: z.number().int(),
    source: z.enum(['api', 'research']),
    runId: z.string().nullable(),
    rationale: z.string().nullable(),
    articleId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    overlap: TopicOverlapBody.nullable(),
  })
  .meta({ id: 'Topic' });

const TopicResponse = z.object({ topic: TopicBody });

const Title = z.string().trim().min(1).max(300);
const Keyword = z.string().trim().min(1).max(200);
const Brief = z.string().trim().max(4000);
const Priority = z.number().int().min(0).max(100);

const CreateTopic = z
  .object({
    title: Title,
    keyword: Keyword.optional(),
    brief: Brief.optional(),
    scheduledFor: IsoTime.optional(),
    priority: Priority.optional(),
  })
  .strict();

const UpdateTopic = z
  .object({
    status: z.enum(['approved', 'rejected', 'scheduled']).optional(),
    scheduledFor: IsoTime.nullable().optional(),
    priority: Priority.optional(),
    title: Title.optional(),
    keyword: Keyword.nullable().optional(),
    brief: Brief.nullable().optional(),
  })
  .strict()
  .refine(
    (body) => Object.keys(body).length > 0,
    'send at least one of status, scheduledFor, priority, title, keyword, brief',
  )
  .refine((body) => !(body.scheduledFor && body.status && body.status !== 'scheduled'), {
    message: 'scheduledFor goes with status "scheduled" (or no status)',
    path: ['scheduledFor'],
  });

function presentTopic(doc: TopicDoc) {
  const { accountId: _accountId, ...rest } = present(doc);
  return { ...rest, overlap: rest.overlap ?? null };
}

export const topicRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/topics',
    tag: 'Topics',
    summary: "List a project's topics, newest first, optionally by status",
    params: z.object({ id: ProjectId }),
    query: z.object({ status: z.enum(TOPIC_STATUSES).optional(), ...Pagination }),
    responses: { 200: listOf('topics', TopicBody) },
    errors: [404],
    async handle({ params, query, auth, platform }) {
      await ownedProject({ platform, auth }, params.id);
      const page = await platform.readStore.find<TopicDoc>('topics', {
        filter: { projectId: params.id, ...(query.status ? { status: query.status } : {}) },
        sort: { field: 'createdAt', direction: 'desc' },
        limit: query.limit,
        cursor: query.cursor,
      });
      return {
        status: 200,
        body: { topics: page.items.map(presentTopic), nextCursor: page.nextCursor },
      };
    },
  }),
  route({
    method: 'post',
    path: '/projects/:id/topics',
    tag: 'Topics',
    summary: 'Add a topic by hand: approved, or scheduled when scheduledFor is given',
    params: z.object({ id: ProjectId }),
    body: CreateTopic,
    responses: { 201: TopicResponse },
    errors: [404],
    // It reads only who owns the project, which never changes: it waits for the read models only
    // to learn that of a project it has not seen.
    readModels: 'when read',
    async handle(input) {
      const { params, body, platform } = input;
      await requireOwnedProject(input, params.id);
      const overlap = await overlapOf(
        platform,
        params.id,
        { title: body.title, ...(body.keyword ? { keyword: body.keyword } : {}) },
        input.consistency.head,
      );
      const topicId = platform.ids.next('tpc');
      const result = await platform.commands.execute(
        topicStream,
        topicId,
        {
          type: 'CreateTopic',
          topic: {
            topicId,
            projectId: params.id,
            title: body.title,
            keyword: body.keyword ?? null,
            brief: body.brief ?? null,
            status: body.scheduledFor ? 'scheduled' : 'approved',
            scheduledFor: body.scheduledFor ?? null,
            priority: body.priority ?? DEFAULT_PRIORITY,
            source: 'api',
            runId: null,
            rationale: null,
            at: platform.clock.now(),
            overlap,
          },
        },
        commandContext(input),
        { newStream: true },
      );
      const doc = applyAppended(topics, null, result.events)!;
      return {
        status: 201,
        body: { topic: presentTopic(doc) },
        headers: { Location: `/api/v1/topics/${topicId}` },
      };
    },
  }),
  route({
    method: 'post',
    path: '/projects/:id/topics/suggest',
    tag: 'Topics',
    summary: 'Start an AI topic-research run; topics.suggested signals its end',
    params: z.object({ id: ProjectId }),
    responses: {
      202: z.object({
        run: z.object({ id: z.string(), status: z.enum(['running', 'done', 'failed']) }),
      }),
    },
    errors: [404, 409],
    async handle(input) {
      const { params, auth, platform } = input;
      const doc = await ownedProject({ platform, auth }, params.id);
      const result = await platform.commands.execute(
        projectStream,
        params.id,
        {
          type: 'RequestTopicResearch',
          runId: platform.ids.next('run'),
          reason: 'requested',
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      const research = applyAppended(projects, doc, result.events)!.research!;
      return { status: 202, body: { run: { id: research.runId, status: research.status } } };
    },
  }),
  route({
    method: 'get',
    path: '/topics/:id',
    tag: 'Topics',
    summary: 'Read a topic',
    params: z.object({ id: TopicId }),
    responses: { 200: TopicResponse },
    errors: [404],
    async handle({ params, auth, platform }) {
      return {
        status: 200,
        body: {
          topic: presentTopic(
            await ownedDoc<TopicDoc>(platform.readStore, 'topics', params.id, auth, 'topic'),
          ),
        },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/topics/:id',
    tag: 'Topics',
    summary: 'Approve, reject, schedule (scheduledFor), reprioritize (priority) or edit a topic',
    params: z.object({ id: TopicId }),
    body: UpdateTopic,
    responses: { 200: TopicResponse },
    errors: [404, 409],
    async handle(input) {
      const { params, body, auth, platform } = input;
      const doc = await ownedDoc<TopicDoc>(platform.readStore, 'topics', params.id, auth, 'topic');
      const result = await platform.commands.execute(
        topicStream,
        params.id,
        { type: 'UpdateTopic', ...body, at: platform.clock.now() },
        commandContext(input),
      );
      return {
        status: 200,
        body: { topic: presentTopic(applyAppended(topics, doc, result.events)!) },
      };
    },
  }),
  route({
    method: 'post',
    path: '/topics/:id/write',
    tag: 'Topics',
    summary: 'Write the topic now: returns the new article, status queued',
    params: z.object({ id: TopicId }),
    responses: { 201: z.object({ article: ArticleBody }) },
    errors: [402, 404, 409],
    async handle(input) {
      const { params, auth, platform } = input;
      const topic = await ownedDoc<TopicDoc>(
        platform.readStore,
        'topics',
        params.id,
        auth,
        'topic',
      );
      const article = await writeTopic(input, topic);
      return {
        status: 201,
        body: { article: presentArticle(article) },
        headers: { Location: `/api/v1/articles/${article.id}` },
      };
    },
  }),
];
