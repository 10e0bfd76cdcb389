/** Only an http(s) address is ever made a link (PR URLs, crawled sources, sites: any of them may be hostile). */
export function httpUrl(url: string | null | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  return /^https?:$/.test(new URL(url).protocol) ? url : null;
}
