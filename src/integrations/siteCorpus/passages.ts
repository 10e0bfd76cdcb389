/** Passages of a page's readable Markdown: blocks under their nearest heading, each at most about PASSAGE_CHARS. */
export type Passage = { heading: string; body: string };

export const PASSAGE_CHARS = 800;
const MAX_PASSAGES = 400; // a 16,000-character page makes ~20; this bounds a page of one-word lines

export function splitPassages(title: string, markdown: string): Passage[] {
  const passages: Passage[] = [];
  let heading = title;
  let body = '';
  const flush = () => {
    const text = body.trim();
    if (text && passages.length < MAX_PASSAGES) passages.push({ heading, body: text });
    body = '';
  };
  for (const block of markdown.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (!trimmed) continue;
    const headingMatch = /^#{1,6}\s+(.+)$/.exec(trimmed);
    if (headingMatch && !trimmed.includes('\n')) {
      flush();
      heading = headingMatch[1].trim().slice(0, 200);
      continue;
    }
    if (body && body.length + trimmed.length > PASSAGE_CHARS) flush();
    for (let start = 0; start < trimmed.length; start += PASSAGE_CHARS * 2) {
      body += `${body ? '\n\n' : ''}${trimmed.slice(start, start + PASSAGE_CHARS * 2)}`;
      if (body.length > PASSAGE_CHARS) flush();
    }
  }
  flush();
  return passages;
}

/**
 * A user's words as an FTS query that cannot be read as FTS syntax: each word quoted (quotes
 * doubled), all required. Null when no word is left.
 */
export function ftsQuery(query: string, maxWords = 12, anyWord = false): string | null {
  const words = query
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, maxWords);
  if (words.length === 0) return null;
  return words.map((word) => `"${word.replaceAll('"', '""')}"`).join(anyWord ? ' OR ' : ' ');
}
