import { z } from 'zod';
import type { ArticleDoc } from '../../../projections/articles.ts';
import { streamName } from '../../eventstore/port.ts';
import { readStreamOrEmpty } from '../../eventstore/readStreamOrEmpty.ts';
import { route } from '../../http/route.ts';
import { ownedDoc } from '../../http/resources.ts';
import { idOf } from '../../http/schemas.ts';
import { historyEntries } from './historyEntries.ts';

/**
 * One article's whole history as JSON Lines: the entries of GET /articles/:id/history, one per
 * line, in stream order, as a file to keep (the audit view's download). The whole log's export
 * stays an operator command (`inkstream export`).
 */
export const articleHistoryDownloadRoute = route({
  method: 'get',
  path: '/articles/:id/history.jsonl',
  tag: 'History',
  summary:
    "Download the article's whole history as JSON Lines: one history entry per line, in order",
  params: z.object({ id: idOf('art') }),
  responses: { 200: { binary: 'application/jsonl' } },
  errors: [404],
  async handle({ params, auth, platform }) {
    const doc = await ownedDoc<ArticleDoc>(
      platform.readStore,
      'articles',
      params.id,
      auth,
      'article',
    );
    const events = await readStreamOrEmpty(platform.eventStore, streamName('article', doc.id));
    const lines = (await historyEntries(platform.eventStore, events)).map(
      (entry) => `${JSON.stringify(entry)}\n`,
    );
    return {
      status: 200,
      raw: Buffer.from(lines.join('')),
      contentType: 'application/jsonl; charset=utf-8',
      headers: {
        'Content-Disposition': `attachment; filename="${doc.id}-history.jsonl"`,
        'Cache-Control': 'no-store',
      },
    };
  },
});
