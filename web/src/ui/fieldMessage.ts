import type { RequestFailed } from '../api/appClient.ts';

/**
 * The server's message for a field or anything inside it: `settings.cadence.time` matches
 * `body.settings.cadence.time`, and `voiceTraits` matches `body.voiceTraits.3` too.
 */
export function messageFor(
  error: RequestFailed | null | undefined,
  field: string,
): string | undefined {
  return error?.fieldMessage(field);
}

/** The form's message when no field of the form was named (a 403, a 409, an unreachable server). */
export function formMessage(
  error: RequestFailed | null | undefined,
  fields: readonly string[],
): string | undefined {
  if (!error) return undefined;
  return fields.some((field) => messageFor(error, field)) ? undefined : error.message;
}
