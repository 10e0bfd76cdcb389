import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { SEARCH_PROVIDER } from '../../domain/searchAnalytics/searchAnalytics.ts';
import { patternProblem } from './articleUrl.ts';

/** What PUT /projects/:id/integrations/search-analytics accepts. */

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PROPERTY_HINT =
  'sc-domain:example.com for a Domain property, or a URL prefix such as https://example.com/, exactly as Search Console shows it';

/** A URL-prefix property always ends with a slash in Search Console; one without is given it. */
function normalizeProperty(value: string): string {
  if (value.toLowerCase().startsWith('sc-domain:'))
    return `sc-domain:${value.slice('sc-domain:'.length).toLowerCase()}`;
  return URL.canParse(value) && !value.endsWith('/') && !/[?#]/.test(value) ? `${value}/` : value;
}

function isProperty(value: string): boolean {
  if (value.startsWith('sc-domain:')) return DOMAIN.test(value.slice('sc-domain:'.length));
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username && !url.password
  );
}

export const Property = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .transform(normalizeProperty)
  .refine(isProperty, PROPERTY_HINT)
  .describe(PROPERTY_HINT);

const OAuthCredentials = z
  .object({
    type: z.literal('oauth'),
    clientId: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe(
        'The OAuth client ID (…apps.googleusercontent.com) the refresh token was issued to',
      ),
    clientSecret: z.string().trim().min(1).max(300),
    refreshToken: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .describe(
        'A refresh token granted with the scope https://www.googleapis.com/auth/webmasters.readonly by a Google account that is a user of the property',
      ),
  })
  .strict();

const canSign = (pem: string): boolean => {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
};

const ServiceAccountCredentials = z
  .object({
    type: z.literal('service_account'),
    clientEmail: z
      .string()
      .trim()
      .max(320)
      .email()
      .describe(
        "client_email from the service account's JSON key file; add it as a user of the property in Search Console",
      ),
    // A key pasted from an environment variable or a JSON string often carries "\n" as two characters.
    privateKey: z
      .string()
      .max(20_000)
      .transform((pem) => pem.replace(/\\n/g, '\n').trim())
      .refine(
        canSign,
        "private_key from the service account's JSON key file (-----BEGIN PRIVATE KEY----- …)",
      ),
  })
  .strict();

export const SearchCredentialsInput = z.discriminatedUnion('type', [
  OAuthCredentials,
  ServiceAccountCredentials,
]);

export const UrlPattern = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .superRefine((pattern, ctx) => {
    const problem = patternProblem(pattern);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    "How a published article's URL is built: {siteUrl}, {blogUrl} and {slug}, e.g. {siteUrl}/blog/{slug}. Default: {blogUrl}/{slug} when the project has a blogUrl, else {siteUrl}/blog/{slug}",
  );

export const ConnectSearchAnalyticsBody = z
  .object({
    provider: z.literal(SEARCH_PROVIDER).default(SEARCH_PROVIDER),
    property: Property,
    credentials: SearchCredentialsInput,
    urlPattern: UrlPattern.optional(),
    backfill: z
      .boolean()
      .default(false)
      .describe(
        'Record the daily figures of the last 16 months on the first sync (Search Console keeps 16 months), so decay can be judged at once; without it, history starts with the first sync',
      ),
  })
  .strict();
export type ConnectSearchAnalyticsBody = z.infer<typeof ConnectSearchAnalyticsBody>;
