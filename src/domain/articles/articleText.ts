import matter from 'gray-matter';
import { countWords, MATTER_OPTIONS } from '../../mdx/mdx.ts';

/**
 * An article's MDX as the read models keep it: its frontmatter as plain JSON data and its body.
 * Any frontmatter is read (a person may have shaped it by hand); JavaScript frontmatter never runs.
 */
export function articleTextParts(mdx: string): {
  frontmatter: Record<string, unknown>;
  body: string;
} {
  // Passing options turns off gray-matter's unbounded per-input cache; they also refuse JavaScript frontmatter.
  const parsed = matter(mdx, MATTER_OPTIONS);
  return { frontmatter: JSON.parse(JSON.stringify(parsed.data)), body: parsed.content };
}

/** Words in a body, as the length check and the article lists count them. */
export const wordsIn = (body: string): number => countWords(body);
