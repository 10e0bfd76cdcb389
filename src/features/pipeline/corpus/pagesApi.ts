import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { route } from '../../../http/route.ts';
import { idOf, Pagination } from '../../../http/schemas.ts';
import type { CorpusPage } from '../../../integrations/siteCorpus/port.ts';
import { decodeCursor, encodeCursor } from '../../../readstore/cursor.ts';
import { ownedProject } from '../../projects/owned.ts';

const SitePage = z
  .object({
    url: z.string(),
    title: z.string(),
    state: z
      .enum(['queued', 'in_flight', 'read', 'unchanged', 'failed', 'skipped'])
      .describe('Where the page stands in the latest corpus crawl'),
    description: z.string().nullable(),
    headings: z.array(z.string()),
    fetchedAt: z.string().nullable(),
    reason: z.string().nullable().describe('Why a page failed or was skipped'),
    passage: z
      .object({ heading: z.string(), text: z.string() })
      .nullable()
      .describe("The passage that matched q (the page's own text, inert Markdown); null without q"),
  })
  .meta({ id: 'SitePage' });

const present = (page: CorpusPage, passage: { heading: string; text: string } | null) => ({
  url: page.url,
  title: page.title,
  state: page.state,
  description: page.description,
  headings: page.headings,
  fetchedAt: page.fetchedAt,
  reason: page.reason,
  passage,
});

const badCursor = () =>
  new AppError(
    'bad_request',
    'cursor is not valid: pass the nextCursor of the previous page unchanged',
  );

export const pagesRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/pages',
    tag: 'Brand',
    summary: "List the site's pages the corpus crawl knows, or search their text with q",
    params: z.object({ id: idOf('prj') }),
    query: z.object({
      q: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('Words every matching passage holds'),
      ...Pagination,
    }),
    responses: { 200: z.object({ pages: z.array(SitePage), nextCursor: z.string().nullable() }) },
    errors: [404],
    async handle({ params, query, auth, platform }) {
      await ownedProject({ platform, auth }, params.id);
      const store = platform.siteCorpus();
      if (query.q) {
        let offset = 0;
        if (query.cursor) {
          const position = decodeCursor(query.cursor);
          if (position.id !== query.q || typeof position.key !== 'number') throw badCursor();
          offset = position.key;
        }
        const hits = store.search(params.id, query.q, { limit: query.limit + 1, offset });
        const shown = hits.slice(0, query.limit);
        return {
          status: 200,
          body: {
            pages: shown.map((hit) => present(hit.page, { heading: hit.heading, text: hit.text })),
            nextCursor:
              hits.length > query.limit
                ? encodeCursor({ key: offset + query.limit, id: query.q })
                : null,
          },
        };
      }
      let afterUrl: string | undefined;
      if (query.cursor) {
        const position = decodeCursor(query.cursor);
        if (position.key !== 'url') throw badCursor();
        afterUrl = position.id;
      }
      const pages = store.pages(params.id, { limit: query.limit + 1, afterUrl });
      const shown = pages.slice(0, query.limit);
      return {
        status: 200,
        body: {
          pages: shown.map((page) => present(page, null)),
          nextCursor:
            pages.length > query.limit ? encodeCursor({ key: 'url', id: shown.at(-1)!.url }) : null,
        },
      };
    },
  }),
];
