import { errorMessage, isSuccess, MAX_REDIRECTS, type FetchContext } from './fetchContext.ts';
import type { ParsedPage } from './parsePage.ts';
import { normalizePageUrl } from './siteScope.ts';
import type { SkippedUrl } from './types.ts';

export type PageFetch =
  | { ok: true; finalUrl: string; parse(inScope: (url: string) => boolean): ParsedPage }
  | { ok: false; finalUrl: string; skip: SkippedUrl };

const htmlTypes = /^(?:text\/html|application\/xhtml\+xml)\b/i;

/** GETs one page and decides whether it is usable HTML; parsing waits until the caller knows the final URL is wanted. */
export async function fetchPage(ctx: FetchContext, url: string): Promise<PageFetch> {
  const skip = (kind: SkippedUrl['kind'], reason: string, finalUrl = url): PageFetch => ({
    ok: false,
    finalUrl,
    skip: { url, kind, reason },
  });
  try {
    const response = await ctx.http.request(url, {
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
      timeoutMs: ctx.timeoutMs,
      maxBytes: ctx.maxPageBytes,
      onTooLarge: 'truncate',
      maxRedirects: MAX_REDIRECTS,
      signal: ctx.signal,
    });
    const finalUrl = normalizePageUrl(response.url) ?? url;
    if (!isSuccess(response.status))
      return skip('http_status', `HTTP ${response.status}`, finalUrl);
    const contentType = response.headers['content-type'] ?? '';
    const sniffedHtml =
      !contentType &&
      /^\s*(?:<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString('latin1'));
    if (!htmlTypes.test(contentType) && !sniffedHtml) {
      return skip(
        'not_html',
        `not an HTML page (${contentType.split(';')[0] || 'no content type'})`,
        finalUrl,
      );
    }
    // The HTML parser (cheerio, ~35 MB resident) is loaded by the first crawl, not by every server's start.
    const { parsePage } = await import('./parsePage.ts');
    const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
    return {
      ok: true,
      finalUrl,
      parse: (inScope) =>
        parsePage({
          url: finalUrl,
          status: response.status,
          html: response.body,
          charset,
          inScope,
        }),
    };
  } catch (error) {
    return skip('error', errorMessage(error));
  }
}
