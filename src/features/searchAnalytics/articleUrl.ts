import { slugOfPath } from '../../domain/articles/article.ts';

/**
 * The public address of a published article, from a pattern such as `{siteUrl}/blog/{slug}`:
 * `{siteUrl}` is the project's websiteUrl, `{blogUrl}` its blogUrl (or {siteUrl}/blog), both without
 * a trailing slash, and `{slug}` the published file's name.
 */
export const PLACEHOLDERS = ['siteUrl', 'blogUrl', 'slug'] as const;

export type SiteUrls = { websiteUrl: string; blogUrl: string | null };

export const EXAMPLE_SLUG = 'your-article-slug';

export const defaultUrlPattern = (site: SiteUrls): string =>
  site.blogUrl ? '{blogUrl}/{slug}' : '{siteUrl}/blog/{slug}';

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

export function articleUrl(pattern: string, site: SiteUrls, slug: string): string {
  const siteUrl = withoutTrailingSlash(site.websiteUrl);
  const blogUrl = site.blogUrl ? withoutTrailingSlash(site.blogUrl) : `${siteUrl}/blog`;
  return pattern
    .replaceAll('{siteUrl}', siteUrl)
    .replaceAll('{blogUrl}', blogUrl)
    .replaceAll('{slug}', encodeURIComponent(slug));
}

/** What is wrong with a pattern on its own, or null. */
export function patternProblem(pattern: string): string | null {
  const unknown = [...pattern.matchAll(/\{([^}]*)\}/g)]
    .map((match) => match[1])
    .filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length)
    return `unknown placeholder {${unknown[0]}}; use {siteUrl}, {blogUrl} and {slug}`;
  if (!pattern.includes('{slug}'))
    return 'the pattern must contain {slug}, e.g. {siteUrl}/blog/{slug}';
  return null;
}

/** Whether Search Console reports `url` under `property` (a Domain property covers its subdomains and both schemes). */
export function propertyCovers(property: string, url: string): boolean {
  if (!URL.canParse(url)) return false;
  if (property.startsWith('sc-domain:')) {
    const domain = property.slice('sc-domain:'.length);
    const host = new URL(url).hostname.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  }
  return url.startsWith(property);
}

/** The slug an article is published under: its file's name (it differs from the draft's after a collision). */
export const publishedSlug = (article: {
  path: string | null;
  slug: string | null;
}): string | null => (article.path ? slugOfPath(article.path) : article.slug);
