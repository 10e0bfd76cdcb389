import { httpUrl } from '../ui/httpUrl.ts';

/** A link out to a crawled page: only an http(s) address becomes a link, and it opens without an opener or referrer. */
export function webPage(url: string | null): URL | null {
  const href = httpUrl(url);
  return href ? new URL(href) : null;
}

export function SourceLink({ url }: { url: string | null }) {
  const page = webPage(url);
  if (!page) return url ? <span>source not a web page</span> : <span>entered by a person</span>;
  return (
    <a
      href={page.href}
      target="_blank"
      rel="noopener noreferrer"
    >{`${page.host}${page.pathname === '/' ? '' : page.pathname}`}</a>
  );
}
