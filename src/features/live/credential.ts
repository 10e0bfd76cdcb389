import { hasAccessTokenShape } from '../../domain/accounts/accessToken.ts';
import { isAppError } from '../../core/errors.ts';
import { lookUpAccessToken } from '../../http/accessTokens.ts';
import { lookUpKey, presentedKey } from '../../http/auth.ts';
import type { Platform } from '../../platform.ts';

/**
 * Whether the credential a stream was opened with is still good: an access token that has expired
 * or whose session ended, or a revoked key, ends the stream (the client reconnects with a new one).
 */
export function credentialCheck(
  authorization: string | undefined,
  { readStore, clock }: Pick<Platform, 'readStore' | 'clock'>,
) {
  return async (): Promise<boolean> => {
    try {
      const presented = presentedKey(authorization);
      if (hasAccessTokenShape(presented.key))
        await lookUpAccessToken(presented, readStore, clock.nowMs());
      else await lookUpKey(presented, readStore);
      return true;
    } catch (error) {
      if (isAppError(error) && error.code === 'unauthorized') return false;
      throw error;
    }
  };
}
