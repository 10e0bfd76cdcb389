/**
 * The models a project may choose, so a tenant cannot bill the operator's key for any model it
 * names. The server's default model is always allowed: it is what a project without a choice uses.
 */
export const DEFAULT_ALLOWED_MODELS = ['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-4.1-nano'] as const;

/** `configured` is INKSTREAM_ALLOWED_MODELS split at commas; unset means the documented small set. */
export function allowedModels(
  defaultModel: string,
  configured: readonly string[] | undefined,
): string[] {
  return [...new Set([defaultModel, ...(configured ?? DEFAULT_ALLOWED_MODELS)])];
}

/**
 * The model a call uses: the project's choice while it is allowed, else the default. A stored
 * choice can fall out of the list when the operator narrows it; the project keeps working on the
 * default rather than failing or spending on a model the operator no longer pays for.
 */
export function modelToUse(
  chosen: string | null,
  defaultModel: string,
  allowed: readonly string[],
): { model: string; disallowed: boolean } {
  if (chosen === null || chosen === defaultModel) return { model: defaultModel, disallowed: false };
  return allowed.includes(chosen)
    ? { model: chosen, disallowed: false }
    : { model: defaultModel, disallowed: true };
}
