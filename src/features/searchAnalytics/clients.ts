import { AppError } from '../../core/errors.ts';
import { createGoogleSearchConsole } from '../../integrations/searchAnalytics/googleSearchConsole.ts';
import {
  isSearchAnalyticsError,
  type SearchConsolePort,
  type SearchCredentials,
} from '../../integrations/searchAnalytics/port.ts';
import type { Platform } from '../../platform.ts';
import { refusedOnSave, unverifiedUser, type AccessContext } from './accessErrors.ts';
import type {
  CredentialSummary,
  SearchConnection,
} from '../../domain/searchAnalytics/searchAnalytics.ts';

/** A Search Console client for these credentials, at the configured API root and token endpoint. */
export function searchConsoleFor(
  platform: Platform,
  credentials: SearchCredentials,
): SearchConsolePort {
  return createGoogleSearchConsole({
    credentials,
    rootUrl: platform.config.SEARCH_CONSOLE_API_URL,
    tokenUrl: platform.config.GOOGLE_OAUTH_TOKEN_URL,
  });
}

/** The stored connection's credentials, unsealed in memory only; `owner` is the record they were sealed for. */
export const credentialsOf = (
  platform: Platform,
  connection: SearchConnection,
  owner: { accountId: string; projectId: string },
): SearchCredentials =>
  JSON.parse(
    platform.secrets.open(connection.sealedCredentials, {
      kind: 'search-credentials',
      accountId: owner.accountId,
      recordId: owner.projectId,
    }),
  ) as SearchCredentials;

export const summaryOf = (credentials: SearchCredentials): CredentialSummary =>
  credentials.type === 'oauth'
    ? { type: 'oauth' }
    : { type: 'service_account', clientEmail: credentials.clientEmail };

const VISIBLE_SHOWN = 10;

async function visibleProperties(port: SearchConsolePort): Promise<string[]> {
  try {
    const sites = await port.sites();
    return sites
      .filter((site) => site.permissionLevel !== 'siteUnverifiedUser')
      .map((site) => site.siteUrl)
      .slice(0, VISIBLE_SHOWN);
  } catch {
    return [];
  }
}

/**
 * The check on save, with real calls: the token exchange, then sites.get on the property. A
 * refusal of the property also lists the properties the credentials can see, since a property
 * string that differs from Search Console's by a scheme or a slash is refused the same way.
 */
export async function validateAccess(
  port: SearchConsolePort,
  context: AccessContext,
): Promise<void> {
  try {
    await port.authorize();
    const site = await port.site(context.property);
    if (site.permissionLevel === 'siteUnverifiedUser') throw unverifiedUser(context);
  } catch (error) {
    if (error instanceof AppError || !isSearchAnalyticsError(error)) throw error;
    const visible =
      error.kind === 'permission_denied' || error.kind === 'not_found'
        ? await visibleProperties(port)
        : [];
    throw refusedOnSave(error, { ...context, visibleProperties: visible });
  }
}
