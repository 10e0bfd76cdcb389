/** What changed between two versions of an article: counts for events and auditors, text for people. */
export type DiffSummary = {
  addedLines: number;
  removedLines: number;
  addedWords: number;
  removedWords: number;
  changed: boolean;
};

type Op = { kind: 'same' | 'add' | 'remove'; text: string; oldIndex: number; newIndex: number };

/**
 * Myers' O((N+M)·D) shortest edit script: fast for the usual revision, where few lines change
 * between two long versions.
 */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const max = a.length + b.length;
  const v = new Int32Array(2 * max + 3);
  const offset = max + 1;
  // Round d only reads diagonals -d-1..d+1 of the round before: keep just that slice of each.
  const trace: Int32Array[] = [];
  const at = (d: number, k: number): number => trace[d][k + d + 1];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= a.length && y >= b.length) {
        found = true;
        break;
      }
    }
  }
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const k = x - y;
    const prevK = k === -d || (k !== d && at(d, k - 1) < at(d, k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(d, prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: 'same', text: a[x], oldIndex: x, newIndex: y });
    }
    if (d > 0) {
      if (x === prevX) {
        y--;
        ops.push({ kind: 'add', text: b[y], oldIndex: x, newIndex: y });
      } else {
        x--;
        ops.push({ kind: 'remove', text: a[x], oldIndex: x, newIndex: y });
      }
    }
  }
  return ops.reverse();
}

const lines = (text: string): string[] =>
  text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** Words counted as a multiset: a rewrite of a long article stays linear, and moves count as no change. */
function wordChanges(before: string, after: string): { added: number; removed: number } {
  const balance = new Map<string, number>();
  for (const word of wordsOf(before)) balance.set(word, (balance.get(word) ?? 0) - 1);
  for (const word of wordsOf(after)) balance.set(word, (balance.get(word) ?? 0) + 1);
  let added = 0;
  let removed = 0;
  for (const n of balance.values()) {
    if (n > 0) added += n;
    else removed -= n;
  }
  return { added, removed };
}

export function diffSummary(before: string, after: string): DiffSummary {
  const lineOps = editScript(lines(before), lines(after));
  const words = wordChanges(before, after);
  const addedLines = lineOps.filter((op) => op.kind === 'add').length;
  const removedLines = lineOps.filter((op) => op.kind === 'remove').length;
  return {
    addedLines,
    removedLines,
    addedWords: words.added,
    removedWords: words.removed,
    changed: addedLines + removedLines > 0,
  };
}

/** A unified diff (`diff -u` format, 3 lines of context) between two versions; empty when equal. */
export function unifiedDiff(
  before: string,
  after: string,
  names: { from?: string; to?: string } = {},
  context = 3,
): string {
  const ops = editScript(lines(before), lines(after));
  const changes = ops.map((op, i) => (op.kind === 'same' ? -1 : i)).filter((i) => i >= 0);
  if (changes.length === 0) return '';
  const out = [`--- ${names.from ?? 'before'}`, `+++ ${names.to ?? 'after'}`];
  let start = 0;
  while (start < changes.length) {
    let end = start;
    while (end + 1 < changes.length && changes[end + 1] - changes[end] <= 2 * context + 1) end++;
    const from = Math.max(0, changes[start] - context);
    const to = Math.min(ops.length - 1, changes[end] + context);
    const hunk = ops.slice(from, to + 1);
    const oldLines = hunk.filter((op) => op.kind !== 'add').length;
    const newLines = hunk.filter((op) => op.kind !== 'remove').length;
    const oldStart = hunk[0].oldIndex + (oldLines ? 1 : 0);
    const newStart = hunk[0].newIndex + (newLines ? 1 : 0);
    out.push(`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`);
    for (const op of hunk)
      out.push(`${op.kind === 'same' ? ' ' : op.kind === 'add' ? '+' : '-'}${op.text}`);
    start = end + 1;
  }
  return `${out.join('\n')}\n`;
}
