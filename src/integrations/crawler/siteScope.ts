/**
 * Which URLs belong to the site, how they are normalised, and which are worth fetching first.
 * "Same site" is the website's host and the blog's host, with or without a leading "www.".
 */
export type SiteScope = {
  includes(url: string): boolean;
  /** Adds a host, e.g. the one the home page redirected to. */
  addHost(url: string): void;
};

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

export function createSiteScope(urls: readonly string[]): SiteScope {
  const hosts = new Set<string>();
  const addHost = (url: string) => {
    try {
      hosts.add(bareHost(new URL(url).hostname));
    } catch {
      /* not a URL: nothing to add */
    }
  };
  urls.forEach(addHost);
  return {
    includes(url) {
      try {
        return hosts.has(bareHost(new URL(url).hostname));
      } catch {
        return false;
      }
    },
    addHost,
  };
}

const trackingParameter = /^(?:utm_\w+|fbclid|gclid|msclkid|mc_cid|mc_eid|ref)$/i;

/** An absolute http(s) URL without fragment or tracking parameters; null for anything else. */
export function normalizePageUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  url.hash = '';
  for (const name of [...url.searchParams.keys()])
    if (trackingParameter.test(name)) url.searchParams.delete(name);
  return url.href;
}

const assetExtension =
  /\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4a|mov|avi|webm|ogg|wav|zip|gz|tgz|rar|7z|dmg|exe|msi|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?)$/i;

/** Files that are certainly not HTML pages, judged by the path alone (saves a request). */
export const looksLikeAsset = (url: string): boolean => assetExtension.test(new URL(url).pathname);

const keyPage =
  /\/(?:about|about-us|company|team|our-story|story|mission|who-we-are|platform?|products?|solutions?|features?|pricing|plans|customers?|case-studies|testimonials|reviews|contact)(?:\/|$|\.html?$)/i;

/**
 * Lower is sooner: the pages that say most about the company first (about, products, pricing,
 * customers), then shallow pages before deep ones, so a capped crawl still learns the brand.
 */
export function pagePriority(url: string): number {
  const path = new URL(url).pathname;
  if (keyPage.test(path)) return 2;
  const depth = path.split('/').filter(Boolean).length;
  return 3 + depth;
}
