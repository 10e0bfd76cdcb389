/** Whole days, YYYY-MM-DD, both ends included (Search Console's own dates). */
export type DateRange = { start: string; end: string };
