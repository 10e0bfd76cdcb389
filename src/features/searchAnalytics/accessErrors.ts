import { AppError } from '../../core/errors.ts';
import {
  SEARCH_CONSOLE_SCOPE,
  type SearchAnalyticsError,
} from '../../integrations/searchAnalytics/port.ts';
import type { CredentialSummary } from '../../domain/searchAnalytics/searchAnalytics.ts';

/**
 * Google's refusals as what to fix, for the answer to PUT (a field error) and for the reason a
 * connection is broken. Service accounts are the common pitfall: Search Console refuses them until
 * an owner adds the account's e-mail as a user of the property, which the message says outright.
 */
export type AccessContext = {
  projectId: string;
  property: string;
  credentials: CredentialSummary;
  /** Properties these credentials can see, when the one asked for was refused. */
  visibleProperties?: readonly string[];
};

const ADD_USER =
  'in Search Console open the property, Settings → Users and permissions → Add user (Restricted is enough)';
const PROPERTY_FORMS =
  'sc-domain:example.com for a Domain property, or the URL prefix with its scheme and trailing slash (https://www.example.com/)';

function saveWith(context: AccessContext): string {
  return `save them with PUT /api/v1/projects/${context.projectId}/integrations/search-analytics`;
}

function suggestion(context: AccessContext): string {
  const visible = context.visibleProperties ?? [];
  return visible.length
    ? ` These credentials can see ${visible.map((p) => `"${p}"`).join(', ')}: if one of them is meant, use that exact string as property.`
    : '';
}

function permissionDenied(context: AccessContext, detail: string): string {
  const { property, credentials } = context;
  if (credentials.type === 'service_account') {
    return (
      `Search Console refused the service account ${credentials.clientEmail} access to ${property} (${detail}). Add ${credentials.clientEmail} as a user: ${ADD_USER}. ` +
      'Search Console refuses a service account until an owner adds its e-mail there; being a member of the Google Cloud project is not enough, and it cannot accept an e-mail invitation.' +
      suggestion(context)
    );
  }
  return (
    `Search Console refused access to ${property} (${detail}). Add the Google account that granted the refresh token as a user of the property: ${ADD_USER}; ` +
    `and check the property string is exactly as Search Console shows it: ${PROPERTY_FORMS}.${suggestion(context)}`
  );
}

/** The field of the PUT body to fix, and the message saying how. */
export function whatToFix(
  error: SearchAnalyticsError,
  context: AccessContext,
): { path: string; message: string } {
  const { property, credentials } = context;
  const detail = error.detail;
  switch (error.kind) {
    case 'invalid_grant':
      return credentials.type === 'service_account'
        ? {
            path: 'body.credentials.privateKey',
            message: `Google refused the service account ${credentials.clientEmail} (${detail}). Check that clientEmail and privateKey come from the same JSON key file and that the key was not deleted or disabled in Google Cloud; if it was, create a new key and ${saveWith(context)}.`,
          }
        : {
            path: 'body.credentials.refreshToken',
            message: `Google refused the refresh token (${detail}): it was revoked, expired or replaced. Re-authorise: grant the scope ${SEARCH_CONSOLE_SCOPE} again as a user of ${property} and ${saveWith(context).replace('them', 'the new refresh token')}.`,
          };
    case 'invalid_client':
      return {
        path: 'body.credentials.clientId',
        message: `Google did not accept the OAuth client (${detail}). Use the client ID and secret of the OAuth client the refresh token was issued to.`,
      };
    case 'insufficient_scope':
      return {
        path: 'body.credentials.refreshToken',
        message: `The refresh token was granted without Search Console access (${detail}). Re-authorise with the scope ${SEARCH_CONSOLE_SCOPE} and ${saveWith(context).replace('them', 'the new refresh token')}.`,
      };
    case 'permission_denied':
      return { path: 'body.property', message: permissionDenied(context, detail) };
    case 'not_found':
      return {
        path: 'body.property',
        message: `Search Console has no property ${property} for these credentials (${detail}). Check the exact property string: ${PROPERTY_FORMS}.${suggestion(context)}`,
      };
    default:
      return {
        path: 'body',
        message: `Search Console refused the request about ${property} (${detail}).`,
      };
  }
}

/** The answer to PUT when Google refuses or cannot be asked: nothing is saved either way. */
export function refusedOnSave(error: SearchAnalyticsError, context: AccessContext): AppError {
  if (error.retryable) {
    return new AppError(
      'unavailable',
      `Google could not be asked about ${context.property} (${error.detail}). Nothing was saved; send the request again in a minute.`,
      { cause: error },
    );
  }
  const { path, message } = whatToFix(error, context);
  return new AppError('validation_failed', message, { cause: error, details: [{ path, message }] });
}

/** Search Console's answer when the caller is not a verified user of the property (its data is refused). */
export function unverifiedUser(context: AccessContext): AppError {
  const who =
    context.credentials.type === 'service_account'
      ? context.credentials.clientEmail
      : 'The Google account that granted the refresh token';
  const message = `${who} is only an unverified user of ${context.property}, and Search Console gives its data to owners and full or restricted users. Add it as a user: ${ADD_USER}.`;
  return new AppError('validation_failed', message, {
    details: [{ path: 'body.property', message }],
  });
}
