import { expect, test } from 'vitest';
import { byRank, placeAt, type Ranked } from '../../web/src/boards/ranking.ts';

const card = (id: string, priority: number, createdAt = '2026-11-25T10:00:00.000Z'): Ranked => ({
  id,
  priority,
  createdAt,
});
/** The column after the changes, as ids in rank order. */
const after = (cards: Ranked[], movedId: string, index: number) => {
  const changes = placeAt([...cards].sort(byRank), movedId, index);
  const changed = cards.map((c) => ({
    ...c,
    priority: changes.find((change) => change.id === c.id)?.priority ?? c.priority,
  }));
  return { order: changed.sort(byRank).map((c) => c.id), changes };
};

test('in a column of equal priorities a move changes one card, and the card lands where it was put', () => {
  const column = ['a', 'b', 'c', 'd'].map((id) => card(id, 50));
  expect(after(column, 'd', 2)).toEqual({
    order: ['a', 'b', 'd', 'c'],
    changes: [{ id: 'c', priority: 49 }],
  });
  expect(after(column, 'd', 0)).toEqual({
    order: ['d', 'a', 'b', 'c'],
    changes: [{ id: 'd', priority: 51 }],
  });
  expect(after(column, 'a', 3).order).toEqual(['b', 'c', 'd', 'a']);
});

test('between spread priorities only the moved card changes, raised when it goes up and lowered when it goes down', () => {
  const column = [card('a', 90), card('b', 60), card('c', 20)];
  expect(after(column, 'c', 1)).toEqual({
    order: ['a', 'c', 'b'],
    changes: [{ id: 'c', priority: 61 }],
  });
  expect(after(column, 'a', 2)).toEqual({
    order: ['b', 'c', 'a'],
    changes: [{ id: 'a', priority: 19 }],
  });
});

test('at the ends of the range the other direction is taken, never a priority outside 0–100', () => {
  const top = [card('a', 100), card('b', 100), card('c', 100)];
  const moved = after(top, 'c', 0);
  expect(moved.order).toEqual(['c', 'a', 'b']);
  expect(moved.changes.every((change) => change.priority >= 0 && change.priority <= 100)).toBe(
    true,
  );
  const bottom = [card('a', 0), card('b', 0), card('c', 0)];
  expect(after(bottom, 'a', 2).order).toEqual(['b', 'c', 'a']);
  expect(placeAt(bottom, 'missing', 0)).toEqual([]);
});
