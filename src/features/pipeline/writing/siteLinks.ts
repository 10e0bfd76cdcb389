import type { ActiveProject } from '../../../domain/projects/project.ts';

const hostOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).host.replace(/^www\./, '').toLowerCase();
  } catch {
    return null;
  }
};

/**
 * Where an article body may link: the crawled site (its website, blog and sitemap hosts, which is
 * where its pages, its sitemap's URLs and Inkstream's published articles live) and anchors within
 * the article. A relative link resolves against the website. Anything else becomes plain text.
 */
export function siteLinkPolicy(
  project: Pick<ActiveProject, 'websiteUrl' | 'blogUrl' | 'sitemapUrl'>,
): (url: string) => boolean {
  const hosts = new Set(
    [project.websiteUrl, project.blogUrl, project.sitemapUrl]
      .map(hostOf)
      .filter((host): host is string => host !== null),
  );
  return (url) => {
    if (url.startsWith('#')) return true;
    let parsed: URL;
    try {
      parsed = new URL(url, project.websiteUrl);
    } catch {
      return false;
    }
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      hosts.has(parsed.host.replace(/^www\./, '').toLowerCase())
    );
  };
}
