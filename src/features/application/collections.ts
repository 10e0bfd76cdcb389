import { createHash } from 'node:crypto';
import type { CollectionSpec, ReadStore } from '../../readstore/port.ts';
import { collectionsDeclaredOnce } from '../../readstore/ensureOnce.ts';
import { KEY_LAST_USED_SPEC } from '../../http/keyLastUsed.ts';

/**
 * What the application keeps beside the log, none of it derived from events (a rebuild leaves it
 * alone): members' personal data (erased when they are removed), one-time links, sessions.
 */
export const MEMBER_PROFILES = 'member_profiles';
/** One document per email in use (its id the SHA-256 of the lower-cased email): emails are unique. */
export const MEMBER_EMAILS = 'member_emails';
export const MEMBER_LINKS = 'member_links';
export const SESSIONS = 'app_sessions';

const COLLECTIONS: readonly CollectionSpec[] = [
  { name: MEMBER_PROFILES, indexes: ['accountId'] },
  { name: MEMBER_EMAILS, indexes: [] },
  { name: MEMBER_LINKS, indexes: ['memberId'] },
  { name: SESSIONS, indexes: ['memberId', 'ref'] },
  // Written by the API's key check (http/keyLastUsed.ts), read by the keys area.
  KEY_LAST_USED_SPEC,
];

export type MemberProfile = {
  id: string;
  accountId: string;
  email: string | null;
  name: string | null;
  passwordHash: string | null;
};
export type EmailClaim = { id: string; memberId: string; accountId: string };

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const emailId = (email: string): string => sha256(email.trim().toLowerCase());

/** Declares the collections once per store (the server does at start); every user awaits it. */
export const ensureApplicationCollections = collectionsDeclaredOnce(COLLECTIONS);

/** Every document of a collection with `field` = `value` (an indexed field), page by page. */
export async function findAllBy<T extends { id: string }>(
  readStore: ReadStore,
  collection: string,
  field: string,
  value: string,
): Promise<T[]> {
  const found: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await readStore.find<T & Record<string, unknown>>(collection, {
      filter: { [field]: value },
      limit: 200,
      cursor,
    });
    found.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}
