import type { Urls } from './objects.ts';
import type { Access, Actor, PermissionName, RepoRecord } from './state.ts';

/** What a route of the fake sees and answers. Routes are named by GitHub's operationId. */

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export type RouteContext = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  actor: Actor | null;
  /** The repository named in the path, already checked to be visible to the actor. */
  repo: RepoRecord;
  urls: Urls;
  nowIso(): string;
};

export type Route = {
  operationId: string;
  method: string;
  /** Matched against the raw (still percent-encoded) path; groups are decoded afterwards. */
  pattern: RegExp;
  /**
   * Checked before the handler: no grant on the repository → 404; none of these alternatives held
   * → 403 with `x-accepted-github-permissions` naming them, as GitHub answers fine-grained tokens.
   */
  permission?: [PermissionName, Access][];
  /** App routes authenticate with the app's JWT instead of a token. */
  appJwt?: boolean;
  handle(ctx: RouteContext): Reply;
};

/** A GitHub error answer, thrown from a handler. */
export class HttpFailure extends Error {
  readonly reply: Reply;
  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers?: Record<string, string>,
  ) {
    super(message);
    this.reply = {
      status,
      body: {
        message,
        documentation_url: 'https://docs.github.com/rest',
        status: String(status),
        ...extra,
      },
      headers,
    };
  }
}

export const notFound = () => new HttpFailure(404, 'Not Found');

/** 422 the way GitHub words it: `Validation Failed` with an `errors` list. */
export const validationFailed = (...errors: Record<string, unknown>[]) =>
  new HttpFailure(422, 'Validation Failed', { errors });

export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') {
    throw new HttpFailure(422, `Invalid request.\n\n"${field}" wasn't supplied.`);
  }
  return value;
}

/** The route table pattern for `/repos/{owner}/{repo}` + rest. */
export const repoPath = (rest: string) =>
  new RegExp(`^/repos/(?<owner>[^/]+)/(?<repo>[^/]+)${rest}$`);
