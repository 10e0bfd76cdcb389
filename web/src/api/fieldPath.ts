/** `body.events.0`, `events[0]` and `events.0` are all `events`, `0`; empty segments are dropped. */
const segmentsOf = (path: string): string[] => path.split(/[.[\]]+/).filter(Boolean);

/**
 * Whether the server's issue at `path` belongs to the form field `field`: the field itself or
 * anything inside it, compared segment by segment (`events` takes `body.events.0`, not
 * `body.eventsLog`). The request part of the path (`body.`) is not part of a field's name, and an
 * empty field or path names nothing.
 */
export function namesField(path: string, field: string): boolean {
  const issue = segmentsOf(path);
  if (issue[0] === 'body') issue.shift();
  const wanted = segmentsOf(field);
  if (wanted.length === 0 || issue.length < wanted.length) return false;
  return wanted.every((segment, index) => issue[index] === segment);
}
