/**
 * Text made safe to stand as an element's content or a quoted attribute value in HTML or XML (SVG):
 * the five characters markup gives meaning to become entities, so the text is shown, never parsed.
 */
export const escapeMarkup = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
