import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { Platform } from '../../platform.ts';
import type { Actor, StoredEvent } from '../../eventstore/port.ts';
import type { MemberRecord } from '../../domain/accounts/members.ts';
import type { HttpMethod } from '../../http/route.ts';
import type { ActiveAccount } from './accountState.ts';
import type { SessionDoc } from './sessions.ts';
import type { SignInThrottle } from './signIn.ts';

/** A signed-in member, as their session and the account's stream say now. */
export type SignedIn = {
  session: SessionDoc;
  account: ActiveAccount;
  events: readonly StoredEvent[];
  member: MemberRecord;
  actor: Actor;
};

export type AppInput<B, Who> = {
  body: B;
  params: Record<string, string>;
  platform: Platform;
  requestId: string;
  req: IncomingMessage;
  secure: boolean;
  address: string;
  throttle: SignInThrottle;
  signedIn: Who;
};

export type AppResult = { status: number; body?: unknown; cookie?: string };

/**
 * An endpoint of the application under /app/api, outside the /api/v1 index: `public` ones need no
 * session (sign-in, set-password), `member` ones any signed-in member, `owner` ones an owner.
 */
type Spec<B extends z.ZodType | undefined, A extends 'public' | 'member' | 'owner'> = {
  method: HttpMethod;
  path: string;
  access: A;
  body?: B;
  handle(
    input: AppInput<
      B extends z.ZodType ? z.infer<B> : undefined,
      A extends 'public' ? SignedIn | null : SignedIn
    >,
  ): Promise<AppResult>;
};

export type AppRoute = Spec<z.ZodType | undefined, 'public' | 'member' | 'owner'>;

export const appRoute = <
  B extends z.ZodType | undefined = undefined,
  A extends 'public' | 'member' | 'owner' = 'member',
>(
  spec: Spec<B, A>,
): AppRoute => spec as unknown as AppRoute;
