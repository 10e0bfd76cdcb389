import type { Route } from '../../src/http/route.ts';
import type { TestInkstream } from './inkstream.ts';

/** One id of each kind a path can name, all owned by one account. */
export type OwnedIds = { projectId: string; topicId: string; articleId: string };

/** A valid body for each endpoint that takes one, so a test can tell "refused for the id" from "refused for the body". */
export const VALID_BODIES: Record<string, unknown> = {
  'POST /projects': { name: 'Sample', websiteUrl: 'https://sample.example' },
  'PATCH /projects/:id': { name: 'Renamed' },
  'POST /projects/:id/crawl': { overwriteEditedParts: false },
  'PUT /projects/:id/brand': { voiceTraits: ['plain'] },
  'POST /projects/:id/topics': { title: 'Sample topic' },
  'PATCH /topics/:id': { priority: 7 },
  'POST /articles/:id/revise': { instruction: 'Tighten the intro.' },
  'PUT /projects/:id/integrations/github': {
    repository: 'acme/site',
    credentials: { type: 'token', token: 'github_pat_sample' },
  },
  'PATCH /projects/:id/integrations/github': { overrides: { fileName: '{slug}/index.md' } },
  'PUT /projects/:id/integrations/post-publish-hook': { url: 'https://hooks.example/rebuild' },
  'PUT /projects/:id/integrations/search-analytics': {
    property: 'sc-domain:owned.example',
    credentials: {
      type: 'oauth',
      clientId: 'sample.apps.googleusercontent.com',
      clientSecret: 'sample-secret',
      refreshToken: '1//sample',
    },
  },
};

export const routeKey = (route: Pick<Route, 'method' | 'path'>): string =>
  `${route.method.toUpperCase()} ${route.path}`;

const KINDS: Record<string, keyof OwnedIds> = {
  projects: 'projectId',
  topics: 'topicId',
  articles: 'articleId',
};

/** Endpoints of the resources these samples know how to make (other features test their own). */
export const isCovered = (route: Pick<Route, 'path'>): boolean =>
  route.path === '/' || route.path.split('/')[1] in KINDS;

/** The resource kind a path's :id names, from the path's first segment. */
export function idKind(path: string): keyof OwnedIds | null {
  return path.includes(':id') ? (KINDS[path.split('/')[1]] ?? null) : null;
}

/** The path with `id` as its :id; any other parameter (a version number, say) gets 1. */
export const pathWith = (path: string, id: string): string =>
  path.replace(':id', encodeURIComponent(id)).replace(/:[A-Za-z]+/g, '1');

/** A project with a topic and a draft article, made over the API by `client`'s account. */
export async function ownedResources(
  app: TestInkstream,
  key: string,
  draft: (articleId: string) => Promise<void>,
): Promise<OwnedIds> {
  const client = app.api(key);
  const {
    body: { project },
  } = await client.post('/projects', { name: 'Owned', websiteUrl: 'https://owned.example' });
  const {
    body: { topic: written },
  } = await client.post(`/projects/${project.id}/topics`, { title: 'Written' });
  const {
    body: { article },
  } = await client.post(`/topics/${written.id}/write`);
  await draft(article.id);
  const {
    body: { topic },
  } = await client.post(`/projects/${project.id}/topics`, { title: 'Waiting' });
  return { projectId: project.id, topicId: topic.id, articleId: article.id };
}

/** Events that API requests appended after `position` (background work, which may run meanwhile, is left out). */
export async function apiEventsAfter(app: TestInkstream, position: bigint) {
  const events = await app.platform.eventStore.readAll({ after: position, maxCount: 100_000 });
  return events.filter((event) => event.metadata.actor.kind === 'api_key');
}
