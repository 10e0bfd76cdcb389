import type { IncomingMessage } from 'node:http';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Prerender } from '../../http/webApp.ts';
import { articlePageHtml } from '../articles/articlePageHtml.ts';
import { overHttps } from './cookies.ts';
import { signedInSession } from './signedInSession.ts';

const ARTICLE_PAGE = /^\/projects\/([A-Za-z0-9_-]+)\/articles\/([A-Za-z0-9_-]+)$/;

/**
 * The article page's address opened with a live session cookie whose member may read the article:
 * its title and body rendered into the first response. Anything else (no session, an ended one,
 * another account's article, an unknown id, `?at=`, a HEAD) is answered with the plain index.html.
 */
export function articlePrerender(platform: Platform): Prerender {
  return (req: IncomingMessage, path: string, query: URLSearchParams) => {
    const match = ARTICLE_PAGE.exec(path);
    if (!match || req.method !== 'GET' || query.has('at')) return null;
    return signedInSession(platform, req, overHttps(req, platform.config))
      .then((signedIn) =>
        articlePageHtml(platform, signedIn.session.accountId, match[1], match[2], path),
      )
      .catch((error: unknown) => {
        if (!(error instanceof AppError))
          platform.logger.warn({ err: error, path }, 'the article page was not prerendered');
        return null;
      });
  };
}
