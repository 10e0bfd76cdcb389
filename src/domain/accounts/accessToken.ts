import { randomBytes } from 'node:crypto';

/** The signed-in application's short-lived bearer tokens for /api/v1 (http/accessTokens.ts keeps them). */
export const ACCESS_TOKEN_PREFIX = 'inkt_';
const TOKEN_PATTERN = new RegExp(`^${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

export const hasAccessTokenShape = (token: string): boolean => TOKEN_PATTERN.test(token);
export const generateAccessToken = (): string =>
  ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
