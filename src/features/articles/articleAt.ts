import { articles, type ArticleDoc } from '../../../projections/articles.ts';
import { AppError } from '../../core/errors.ts';
import type { EventStore } from '../../eventstore/port.ts';
import { streamName } from '../../eventstore/port.ts';
import { readStreamOrEmpty } from '../../eventstore/readStreamOrEmpty.ts';
import { eventsUpTo, parsePointInTime } from './replay.ts';

/**
 * The article as it was at a revision or a time, rebuilt by replaying its stream up to that point
 * through the same fold that builds the read model, never read from the read model itself.
 */
export async function articleAt(
  store: EventStore,
  current: ArticleDoc,
  at: string,
): Promise<ArticleDoc> {
  const point = parsePointInTime(at);
  const events = eventsUpTo(
    await readStreamOrEmpty(store, streamName('article', current.id)),
    point,
  );
  const doc = events.reduce<ArticleDoc | null>(
    (state, event) => articles.evolve(state, event),
    null,
  );
  if (!doc)
    throw new AppError(
      'not_found',
      `Article ${current.id} did not exist yet at ${at}; its first revision is 0.`,
    );
  return { ...doc, accountId: current.accountId };
}
