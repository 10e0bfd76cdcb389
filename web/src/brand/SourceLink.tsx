/** A link out to a crawled page: only an http(s) address becomes a link, and it opens without an opener or referrer. */
export function webPage(url: string | null): URL | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

export function SourceLink({ url }: { url: string | null }) {
  const page = webPage(url);
  if (!page) return url ? <span>source not a web page</span> : <span>entered by a person</span>;
  return <a href={page.href} target="_blank" rel="noopener noreferrer">{`${page.host}${page.pathname === '/' ? '' : page.pathname}`}</a>;
}
