/**
 * Reads the JSON object out of a model's reply. Servers without structured output wrap it in
 * prose or a ```json fence; take the fenced block, else the outermost braces.
 */
export function parseJsonReply(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  if (fenced) candidates.push(fenced[1].trim());
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1));
  let error = 'the reply is empty';
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
  }
  return { ok: false, error: `the reply is not valid JSON (${error})` };
}
