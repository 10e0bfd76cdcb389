import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** USD per million tokens, as providers list them. */
export type ModelPrice = { input: number; output: number };
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The date OpenAI's list prices below were taken from its pricing page (standard tier, uncached input). */
export const DEFAULT_PRICES_AS_OF = '2025-08-07';

export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
};

const Price = z
  .object({ input: z.number().min(0).max(10_000), output: z.number().min(0).max(10_000) })
  .strict();
const Table = z.record(z.string().trim().min(1).max(100), Price);

/**
 * The defaults with the operator's prices over them: a JSON object of model → { input, output }
 * (USD per million tokens), inline in INKSTREAM_LLM_PRICES or in the file INKSTREAM_LLM_PRICES_FILE
 * (the inline one wins for a model in both). A bad table stops the start with the reason.
 */
export function loadPriceTable(source: { json?: string; file?: string }): PriceTable {
  const fromFile = source.file
    ? parseTable(readFileSync(source.file, 'utf8'), `INKSTREAM_LLM_PRICES_FILE (${source.file})`)
    : {};
  const inline = source.json ? parseTable(source.json, 'INKSTREAM_LLM_PRICES') : {};
  return { ...DEFAULT_PRICES, ...fromFile, ...inline };
}

function parseTable(text: string, where: string): Record<string, ModelPrice> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where} is not JSON: ${(error as Error).message}`);
  }
  const parsed = Table.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new Error(
      `${where} must map model names to { "input": USD, "output": USD } per million tokens: ${problems}`,
    );
  }
  return parsed.data;
}

/**
 * The price of a model as a provider names it in its answers: exactly, else without a router
 * prefix (`openai/gpt-4o`) and a dated snapshot suffix (`gpt-4o-mini-2024-07-18`). Null: unknown.
 */
export function priceOf(table: PriceTable, model: string | null): ModelPrice | null {
  if (!model) return null;
  const bare = model.slice(model.lastIndexOf('/') + 1);
  const undated = bare.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return table[model] ?? table[bare] ?? table[undated] ?? null;
}

/** Estimated USD, to a millionth of a dollar. */
export function costOf(price: ModelPrice, tokensIn: number, tokensOut: number): number {
  return Math.round(tokensIn * price.input + tokensOut * price.output) / 1e6;
}
