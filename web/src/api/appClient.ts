/**
 * The application's own endpoints under /app/api (sign-in, members, sessions, keys), typed by hand
 * from docs/application.md: they are outside the public OpenAPI index. The session is an HttpOnly
 * cookie the page cannot read; unsafe requests carry the session's CSRF token.
 */
import { namesField } from './fieldPath.ts';

export type Role = 'owner' | 'editor' | 'viewer';
export type Me = {
  member: { id: string; email: string | null; name: string | null; role: Role };
  account: { id: string; name: string; plan: string };
  csrfToken: string;
  sessionEndsAt: string;
};
export type KeyView = {
  id: string;
  name: string;
  prefix: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};
export type MemberView = {
  id: string;
  email: string | null;
  name: string | null;
  role: Role;
  status: 'invited' | 'active';
  invitedAt: string | null;
  joinedAt: string | null;
};
export type Invited = { member: MemberView; inviteLink: string; inviteLinkExpiresAt: string };
export type SessionView = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  current: boolean;
};
export type FieldIssue = { path: string; message: string };
export type ApiError = { status: number; code: string; message: string; details?: FieldIssue[] };

export class RequestFailed extends Error {
  readonly error: ApiError;
  constructor(error: ApiError) {
    super(error.message);
    this.error = error;
  }
  /** The server's message for a form field or anything inside it (`body.events.0` → `events`), if it named one. */
  fieldMessage(field: string): string | undefined {
    return this.error.details?.find((detail) => namesField(detail.path, field))?.message;
  }
}

let csrfToken: string | null = null;
/** Told when a request finds the session gone, so the page can send the person to sign in. */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};
/** Told who is signed in whenever that is asked again (a change to one's own role, a return to the tab). */
let onMeChanged: (me: Me) => void = () => undefined;
export const whenMeChanged = (handler: (me: Me) => void) => {
  onMeChanged = handler;
};

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/app/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) {
    if (response.status === 401 && path !== '/sign-in') onSignedOut();
    const error = parsed?.error ?? {
      code: 'internal',
      message: `The server answered ${response.status}.`,
    };
    throw new RequestFailed({ status: response.status, ...error });
  }
  if (parsed && typeof parsed.csrfToken === 'string') csrfToken = parsed.csrfToken;
  return parsed as T;
}

export const app = {
  signIn: (email: string, password: string) => call<Me>('POST', '/sign-in', { email, password }),
  setPassword: (input: { token: string; password: string; email?: string; name?: string }) =>
    call<{ email: string; account: string }>('POST', '/set-password', input),
  signOut: () => call<null>('POST', '/sign-out'),
  me: () => call<Me>('GET', '/me'),
  accessToken: () => call<{ accessToken: string; expiresAt: string }>('POST', '/access-token'),
  keys: () => call<{ keys: KeyView[] }>('GET', '/keys'),
  createKey: (name: string) =>
    call<{ key: { id: string; name: string }; secret: string }>('POST', '/keys', { name }),
  rotateKey: (id: string) =>
    call<{ key: { id: string }; secret: string; revoked: string }>(
      'POST',
      `/keys/${encodeURIComponent(id)}/rotate`,
    ),
  revokeKey: (id: string) => call<null>('DELETE', `/keys/${encodeURIComponent(id)}`),
  members: () => call<{ members: MemberView[] }>('GET', '/members'),
  inviteMember: (input: { email: string; role: Role; name?: string }) =>
    call<Invited>('POST', '/members', input),
  changeRole: (id: string, role: Role) =>
    call<{ member: MemberView }>('PATCH', `/members/${encodeURIComponent(id)}`, { role }),
  removeMember: (id: string) => call<null>('DELETE', `/members/${encodeURIComponent(id)}`),
  sessions: () => call<{ sessions: SessionView[] }>('GET', '/sessions'),
  revokeSession: (id: string) => call<null>('DELETE', `/sessions/${encodeURIComponent(id)}`),
};

/**
 * The session check a tab starts with (GET /me), asked once and shared: the app waits for it to
 * know who is signed in, and a page's first read waits for it too, since an access token needs
 * the CSRF token it returns (web/src/article/openingArticle.ts).
 */
let startingSession: Promise<Me> | null = null;
export const sessionAtStart = (): Promise<Me> => (startingSession ??= app.me());

/** After this browser's own session was ended on purpose (revoked from "your sessions"): as a 401 would. */
export const signedOutHere = () => onSignedOut();

/** Asks the server again who is signed in, and tells the app: its navigation and pages follow a changed role without a reload. */
export const refreshMe = async (): Promise<void> => onMeChanged(await app.me());
