/**
 * The sort key of a queue kept in a read-store collection: `<ms, zero-padded>:<tiebreak>`, so one
 * string index orders the queue by due time, then by the tiebreak (an id, a feed sequence).
 */
export const dueKey = (ms: number, tiebreak: string): string =>
  `${String(Math.max(0, Math.floor(ms))).padStart(15, '0')}:${tiebreak}`;

export const dueMsOf = (due: string): number => Number(due.slice(0, due.indexOf(':')));
