/**
 * A column's order by priority: higher first (0–100), then the oldest, as the scheduler writes them
 * (src/features/pipeline/schedule/scheduler.ts). The API keeps one number per topic, so moving a
 * card to a place means changing priorities; `placeAt` finds the fewest changes that put it there.
 */
export type Ranked = { id: string; priority: number; createdAt: string };
export type PriorityChange = { id: string; priority: number };

export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 100;

export const byRank = (a: Ranked, b: Ranked): number =>
  b.priority - a.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * The priority changes that move `movedId` to `index` of `ordered` (a column in rank order). Two
 * ways are tried: lowering the cards below it, or raising those above, each only as far as needed;
 * the one with fewer changes wins. Cards that tie share a priority and keep their age order, so a
 * column where every card is 50 needs a change for each card the moved one has to pass.
 */
export function placeAt(
  ordered: readonly Ranked[],
  movedId: string,
  index: number,
): PriorityChange[] {
  const moved = ordered.find((card) => card.id === movedId);
  if (!moved) return [];
  const wanted = ordered.filter((card) => card.id !== movedId);
  wanted.splice(Math.max(0, Math.min(index, wanted.length)), 0, moved);
  const at = wanted.indexOf(moved);
  // On a tie, the way that changes the moved card first: raise it when it goes up, lower it when it goes down.
  const ways: ('up' | 'down')[] = at < ordered.indexOf(moved) ? ['up', 'down'] : ['down', 'up'];
  const options = ways
    .map((way) => cascade(wanted, at, way))
    .filter((changes): changes is PriorityChange[] => changes !== null);
  return options.sort((a, b) => a.length - b.length)[0] ?? [];
}

/** Walks away from the moved card, giving each card out of order the nearest priority that puts it in order; null when it runs out of range. */
function cascade(
  wanted: readonly Ranked[],
  at: number,
  direction: 'down' | 'up',
): PriorityChange[] | null {
  const cards = wanted.map((card) => ({ ...card }));
  const step = direction === 'down' ? 1 : -1;
  const neighbour = cards[at - step];
  if (neighbour) cards[at].priority = fitAfter(neighbour, cards[at], direction);
  for (let i = at + step; i >= 0 && i < cards.length; i += step) {
    const [higher, lower] =
      direction === 'down' ? [cards[i - 1], cards[i]] : [cards[i], cards[i + 1]];
    if (byRank(higher, lower) < 0) break;
    cards[i].priority = fitAfter(cards[i - step], cards[i], direction);
  }
  if (cards.some((card) => card.priority < MIN_PRIORITY || card.priority > MAX_PRIORITY))
    return null;
  return cards
    .filter((card, i) => card.priority !== wanted[i].priority)
    .map(({ id, priority }) => ({ id, priority }));
}

/** The priority for `card` so it sorts right after (down) or right before (up) `fixed`, changing it as little as possible. */
function fitAfter(fixed: Ranked, card: Ranked, direction: 'down' | 'up'): number {
  const ordered = (higher: Ranked, lower: Ranked) => byRank(higher, lower) < 0;
  if (direction === 'down') {
    if (ordered(fixed, card)) return card.priority;
    return ordered(fixed, { ...card, priority: fixed.priority })
      ? fixed.priority
      : fixed.priority - 1;
  }
  if (ordered(card, fixed)) return card.priority;
  return ordered({ ...card, priority: fixed.priority }, fixed)
    ? fixed.priority
    : fixed.priority + 1;
}
