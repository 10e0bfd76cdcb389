import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Platform } from '../platform.ts';
import type { AuthContext } from './auth.ts';
import type { Consistency } from './consistency.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler may read of the HTTP request beyond its parsed params, query and body. */
export type ApiRequest = {
  method: string;
  /** The path under /api/v1, as sent (not decoded). */
  path: string;
  /** A request header (any case), as express's req.get. */
  get(name: string): string | undefined;
  protocol: 'http' | 'https';
  /** The parsed JSON body (undefined without one). */
  body: unknown;
  /** The body's bytes, on routes that declare `rawBody`. */
  rawBody?: Buffer;
};

export type RouteInput<P, Q, B> = {
  params: P;
  query: Q;
  body: B;
  /** The caller; present on every route whose `auth` is 'api_key'. */
  auth: AuthContext;
  platform: Platform;
  requestId: string;
  request: ApiRequest;
  /** The log's head read when the request arrived, and the wait for the read models to reach it. */
  consistency: Consistency;
  /**
   * Counts `requests` more against the caller's rate limit (a request that costs as much as
   * several, such as a live-stream replay); throws the 429 when the budget is spent.
   */
  charge(requests: number): Promise<void>;
};

export type RouteResult =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { status: number; raw: Buffer; contentType: string; headers?: Record<string, string> }
  /** JSON the handler serialized already (a cached response). */
  | { status: number; json: Buffer; headers?: Record<string, string> }
  /** A long-lived response the handler writes itself (server-sent events); status and headers are set first. */
  | { status: number; stream(res: ServerResponse): void; headers?: Record<string, string> };

type Schema = z.ZodType;
type Infer<S> = S extends Schema ? z.infer<S> : undefined;

/**
 * One declaration per endpoint: it feeds validation, the handler's types and the OpenAPI index.
 * `auth: 'none'` is for endpoints that authenticate otherwise (GitHub's signed events).
 */
export type RouteSpec<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
> = {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  auth?: 'api_key' | 'none';
  /**
   * 'wait' (the default): the handler runs once the read models have reached the request's head.
   * 'when read': it runs at once, and awaits `consistency.readModelsCurrent()` before any read of
   * the read models; for commands whose only reads are facts already known (docs/http.md).
   */
  readModels?: 'wait' | 'when read';
  params?: P;
  query?: Q;
  body?: B;
  /** The raw request bytes are needed (signature checks); the body is still parsed as JSON. */
  rawBody?: boolean;
  /**
   * For a route with `auth: 'none'`: what it can refuse from the headers alone (a missing
   * signature), checked before its body is read.
   */
  beforeBody?(request: Pick<ApiRequest, 'get'>): void;
  /** Success responses by status; null means no body, 'binary' an image or file, 'eventStream' server-sent events whose data is the schema. */
  responses: Record<number, Schema | null | { binary: string } | { eventStream: Schema }>;
  /** Error statuses this endpoint can answer besides 400/401/429/500, for the index. */
  errors?: number[];
  handle(input: RouteInput<Infer<P>, Infer<Q>, Infer<B>>): Promise<RouteResult>;
};

export type Route = RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined>;

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  return spec as unknown as Route;
}

/** Express-style `/projects/:id` → OpenAPI `/projects/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');
