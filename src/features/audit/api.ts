import { z } from 'zod';
import type { ArticleDoc } from '../../../projections/articles.ts';
import { streamName } from '../../eventstore/port.ts';
import { readStreamOrEmpty } from '../../eventstore/readStreamOrEmpty.ts';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { route } from '../../http/route.ts';
import { ownedDoc } from '../../http/resources.ts';
import { idOf } from '../../http/schemas.ts';
import type { AuthContext } from '../../http/auth.ts';
import { historyEntries } from './historyEntries.ts';
import type { HistoryEntry } from './timeline.ts';
import { articleHistoryDownloadRoute } from './historyDownload.ts';
import { contentVersions, versionDiff } from './versions.ts';

const HISTORY_PAGE_MAX = 1000;

const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(100),
  /** The revision to continue from, as returned in nextCursor. */
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'a cursor returned by a previous page')
    .optional(),
});

const HistoryEntryBody = z
  .object({
    position: z.string(),
    revision: z.number(),
    eventId: z.string(),
    type: z.string(),
    at: z.string(),
    actor: z.record(z.string(), z.unknown()),
    correlationId: z.string(),
    causationId: z.string(),
    requestId: z.string(),
    generation: z
      .object({ provider: z.string(), model: z.string().nullable(), usage: z.unknown() })
      .nullable(),
    sources: z.array(z.object({ url: z.string(), title: z.string() })).nullable(),
    data: z.record(z.string(), z.unknown()),
    publicEventIds: z
      .array(z.string())
      .describe(
        'The ids of the public events (webhook deliveries and GET /events) this step gave, in feed order: none for most steps, two for a merge (article.status_changed, article.published)',
      ),
  })
  .meta({ id: 'HistoryEntry' });

const HistoryPage = z.object({
  history: z.array(HistoryEntryBody),
  nextCursor: z.string().nullable(),
});

const DiffStats = z.object({
  addedLines: z.number(),
  removedLines: z.number(),
  addedWords: z.number(),
  removedWords: z.number(),
  changed: z.boolean(),
});
const VersionSummary = z
  .object({
    version: z.number(),
    kind: z.enum(['draft', 'refresh', 'revision']),
    at: z.string(),
    eventId: z.string(),
    revision: z.number(),
    actor: z.record(z.string(), z.unknown()),
    summary: z.string().nullable(),
    diff: DiffStats,
  })
  .meta({ id: 'ArticleVersionSummary' });
const VersionDetail = VersionSummary.extend({ content: z.string(), unifiedDiff: z.string() }).meta({
  id: 'ArticleVersion',
});

type Kind = {
  label: string;
  collection: string;
  category: string;
  prefix: 'art' | 'tpc' | 'prj';
  /** A stream other than the resource's own, keyed by its id (the project's integrations). */
  path?: string;
  summary?: string;
};
const KINDS: Kind[] = [
  { label: 'article', collection: 'articles', category: 'article', prefix: 'art' },
  { label: 'topic', collection: 'topics', category: 'topic', prefix: 'tpc' },
  { label: 'project', collection: 'projects', category: 'project', prefix: 'prj' },
  {
    label: 'project',
    collection: 'projects',
    category: 'integrations',
    prefix: 'prj',
    path: '/projects/:id/integrations/history',
    summary:
      "The project's integrations events in order (GitHub connection, its settings and content profile, the post-publish hook), with their actors",
  },
];

/** Sealed credentials and secrets stay in the log: even encrypted, they are not handed out. */
const withoutSealed = (entry: HistoryEntry): HistoryEntry => ({
  ...entry,
  data: Object.fromEntries(Object.entries(entry.data).filter(([key]) => !key.startsWith('sealed'))),
});

async function historyPage(
  platform: Platform,
  auth: AuthContext,
  kind: Kind,
  id: string,
  query: z.infer<typeof HistoryQuery>,
) {
  await ownedDoc(platform.readStore, kind.collection, id, auth, kind.label);
  const fromRevision = BigInt(query.cursor ?? '0');
  const events = await readStreamOrEmpty(platform.eventStore, streamName(kind.category, id), {
    fromRevision,
    maxCount: query.limit + 1,
  });
  const page = events.slice(0, query.limit);
  const nextCursor = events.length > query.limit ? String(events[query.limit].revision) : null;
  const entries = await historyEntries(platform.eventStore, page);
  return {
    status: 200,
    body: { history: kind.path ? entries.map(withoutSealed) : entries, nextCursor },
  };
}

const historyRoutes = KINDS.map((kind) =>
  route({
    method: 'get',
    path: kind.path ?? `/${kind.collection}/:id/history`,
    tag: 'History',
    summary:
      kind.summary ??
      `The ${kind.label}'s events in order, with actor, correlation and generation details`,
    params: z.object({ id: idOf(kind.prefix) }),
    query: HistoryQuery,
    responses: { 200: HistoryPage },
    errors: [404],
    handle: ({ params, query, auth, platform }) =>
      historyPage(platform, auth, kind, params.id, query),
  }),
);

async function versionsOf(platform: Platform, auth: AuthContext, articleId: string) {
  await ownedDoc<ArticleDoc>(platform.readStore, 'articles', articleId, auth, 'article');
  return contentVersions(
    await readStreamOrEmpty(platform.eventStore, streamName('article', articleId)),
  );
}

export const auditRoutes = [
  ...historyRoutes,
  articleHistoryDownloadRoute,
  route({
    method: 'get',
    path: '/articles/:id/versions',
    tag: 'History',
    summary: 'Every content version of an article with what changed',
    params: z.object({ id: idOf('art') }),
    responses: { 200: z.object({ versions: z.array(VersionSummary) }) },
    errors: [404],
    async handle({ params, auth, platform }) {
      const versions = await versionsOf(platform, auth, params.id);
      return {
        status: 200,
        body: { versions: versions.map(({ content: _content, ...summary }) => summary) },
      };
    },
  }),
  route({
    method: 'get',
    path: '/articles/:id/versions/:n',
    tag: 'History',
    summary: 'One content version: its MDX and a unified diff against the previous one',
    params: z.object({ id: idOf('art'), n: z.coerce.number().int().min(1).max(1_000_000) }),
    responses: { 200: z.object({ version: VersionDetail }) },
    errors: [404],
    async handle({ params, auth, platform }) {
      const versions = await versionsOf(platform, auth, params.id);
      const index = versions.findIndex((version) => version.version === params.n);
      if (index === -1)
        throw new AppError(
          'not_found',
          `Article ${params.id} has no version ${params.n}; it has ${versions.length}.`,
        );
      return {
        status: 200,
        body: { version: { ...versions[index], unifiedDiff: versionDiff(versions, index) } },
      };
    },
  }),
];
