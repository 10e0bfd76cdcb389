import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AppError } from '../../core/errors.ts';
import { trustedProxies } from '../../http/clientAddress.ts';
import { sendError } from '../../http/errors.ts';
import { createWebApp } from '../../http/webApp.ts';
import type { Platform } from '../../platform.ts';
import { adminRoutes } from './adminRoutes.ts';
import { articlePrerender } from './articlePrerender.ts';
import { publicHostCheck } from './publicHost.ts';
import type { AppRoute } from './appRoute.ts';
import { APPLICATION_API_PREFIX, createApplicationApi } from './server.ts';
import { sessionRoutes } from './sessionRoutes.ts';
import { createSignInThrottle, type SignInThrottle } from './signIn.ts';

export { firstOwnerLink, inviteByName, resetLinkByName } from './adminLinks.ts';
export { openSignInThrottle } from './signInThrottleStore.ts';
export { ensureApplicationCollections } from './collections.ts';

/** The application's own endpoints, under /app/api and outside the /api/v1 index (docs/application.md). */
export const applicationRoutes: readonly AppRoute[] = [...sessionRoutes, ...adminRoutes];

/** Where `npm ci` builds the web app, and the page paths it answers (web/src/App.tsx). */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');
export const WEB_PAGES = [
  '/',
  '/sign-in',
  '/set-password',
  '/keys',
  '/projects',
  '/projects/:projectId',
  '/projects/:projectId/topics',
  '/projects/:projectId/articles',
  '/projects/:projectId/articles/:articleId',
  '/projects/:projectId/articles/:articleId/history',
  '/projects/:projectId/brand',
  '/projects/:projectId/settings',
  '/projects/:projectId/integrations',
  '/webhooks',
  '/webhooks/:endpointId',
  '/account',
  '/members',
  '/sessions',
];

/** The web application and its own endpoints under /app/api, beside /api/v1 (http/app.ts `beside`): true when it took the request. */
export function applicationHandler(
  platform: Platform,
  throttle: SignInThrottle = createSignInThrottle(),
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const api = createApplicationApi(platform, applicationRoutes, throttle);
  const web = createWebApp(WEB_DIST, WEB_PAGES, articlePrerender(platform));
  const checkHost = publicHostCheck(
    platform.config,
    trustedProxies(platform.config.INKSTREAM_TRUSTED_PROXIES),
  );
  return (req, res) => {
    try {
      checkHost(req);
    } catch (error) {
      sendError(res, error as AppError, platform.ids.next('req'));
      return true;
    }
    if (web(req, res)) return true;
    const url = req.url ?? '/';
    if (
      url === APPLICATION_API_PREFIX ||
      url.startsWith(`${APPLICATION_API_PREFIX}/`) ||
      url.startsWith(`${APPLICATION_API_PREFIX}?`)
    ) {
      const rest = url.slice(APPLICATION_API_PREFIX.length);
      const query = rest.indexOf('?');
      api(req, res, (query === -1 ? rest : rest.slice(0, query)) || '/');
      return true;
    }
    return false;
  };
}
