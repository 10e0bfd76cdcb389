import { mdxBodyOf } from '../../../mdx/mdx.ts';
import { fitText, PROMPT_BUDGET } from '../../../integrations/llm/promptBudget.ts';

const headingsOf = (body: string): string[] =>
  body
    .split('\n')
    .filter((line) => /^#{2,3} \S/.test(line))
    .map((line) => line.trim());

/**
 * What a refresh tells the model about the published version, once: the research step plans
 * from its sections, and only the draft step, which rewrites it, reads its body (cut to its budget).
 */
export function publishedVersion(mdx: string, step: 'research' | 'write'): string {
  const body = mdxBodyOf(mdx).trim();
  if (step === 'research') {
    const headings = headingsOf(body);
    return ` The published version's sections: ${headings.length ? fitText(headings.join(' | '), PROMPT_BUDGET.publishedOutline) : '(it has no section headings)'}. Plan what to keep, update and add.`;
  }
  return ` The published version is below; keep what still holds, update what has changed, and keep its structure where it works.\n\n${fitText(body, PROMPT_BUDGET.publishedArticle)}`;
}
