import { randomBytes } from 'node:crypto';
import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import { ensureApplicationCollections, MEMBER_LINKS, sha256 } from './collections.ts';

/** One-time links to set a password: single use, 24 hours, stored only as hashes. */
export const LINK_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** `credentials` is the member's count of password settings when the link was made (domain/accounts/members.ts). */
export type LinkDoc = {
  id: string;
  accountId: string;
  memberId: string;
  credentials: number;
  expiresAtMs: number;
};

/** Where the application is reached: INKSTREAM_PUBLIC_URL, else this machine's port. */
export function applicationUrl(config: Platform['config']): string {
  return (config.INKSTREAM_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/**
 * A new link for a member. The token travels in the URL's fragment, which browsers send to no
 * server and put in no Referer; the page hands it to POST /app/api/set-password.
 */
export async function issueLink(
  platform: Pick<Platform, 'readStore' | 'clock' | 'config'>,
  member: { accountId: string; memberId: string; credentials: number },
): Promise<{ url: string; expiresAt: string }> {
  await ensureApplicationCollections(platform.readStore);
  const token = randomBytes(32).toString('base64url');
  const expiresAtMs = platform.clock.nowMs() + LINK_TTL_MS;
  const doc: LinkDoc = { id: sha256(token), ...member, expiresAtMs };
  await platform.readStore.save(MEMBER_LINKS, doc);
  return {
    url: `${applicationUrl(platform.config)}/set-password#token=${token}`,
    expiresAt: new Date(expiresAtMs).toISOString(),
  };
}

const invalidLink = () =>
  new AppError(
    'not_found',
    'This link is not valid: it was used already, has expired (links last 24 hours), or was never issued. Ask an owner of the account for a new one.',
  );

/** The link a token names, if it is current; its use is settled by the member's credentials count. */
export async function currentLink(
  platform: Pick<Platform, 'readStore' | 'clock'>,
  token: string,
): Promise<LinkDoc> {
  if (!TOKEN_PATTERN.test(token)) throw invalidLink();
  await ensureApplicationCollections(platform.readStore);
  const link = await platform.readStore.get<LinkDoc>(MEMBER_LINKS, sha256(token));
  if (!link || link.expiresAtMs <= platform.clock.nowMs()) throw invalidLink();
  return link;
}
