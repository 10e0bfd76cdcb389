import type { ServerResponse } from 'node:http';
import type { Config } from '../../core/config.ts';
import { clientKey } from '../../http/clientAddress.ts';
import { createRateLimit } from '../../http/rateLimit.ts';
import type { SignedIn } from './appRoute.ts';

/** An address may send this many times a session's requests: a few people behind one NAT. */
export const APP_ADDRESS_SHARE = 5;

export type AppRateLimit = {
  /** Every request, first, from its headers alone: per client address (an IPv6 /64 is one). */
  byAddress(address: string, res: Pick<ServerResponse, 'setHeader'>): Promise<void>;
  /** A signed-in request: per session, then per member (their sessions together). */
  bySession(signedIn: SignedIn, res: Pick<ServerResponse, 'setHeader'>): Promise<void>;
};

/**
 * The limits of the application's own endpoints (/app/api), like /api/v1's per key: requests per
 * minute per session and per member (`INKSTREAM_APP_RATE_LIMIT_PER_MINUTE`), and five times as
 * many per address, so no browser session, member or address can keep the process busy for the
 * others. One small layer in front of the dispatch, so it moves with the routes (issue 29).
 * In this process's memory: with several replicas each counts its own.
 */
export function createAppRateLimit(
  config: Pick<Config, 'INKSTREAM_APP_RATE_LIMIT_PER_MINUTE'>,
): AppRateLimit {
  const perMinute = config.INKSTREAM_APP_RATE_LIMIT_PER_MINUTE;
  const addresses = createRateLimit(perMinute * APP_ADDRESS_SHARE);
  const sessions = createRateLimit(perMinute);
  const members = createRateLimit(perMinute);
  return {
    byAddress: (address, res) => addresses.consume(clientKey(address), res, 'your network address'),
    async bySession(signedIn, res) {
      await sessions.consume(signedIn.session.ref, res, 'this session');
      await members.consume(signedIn.member.memberId, res, 'you (your sessions together)');
    },
  };
}
