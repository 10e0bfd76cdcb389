import { z } from 'zod';
import { STATUS_BY_CODE, ErrorBody } from './errors.ts';
import { openApiPath, type Route } from './route.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON or invalid fields (details list each field)',
  401: 'Missing, malformed, unknown or revoked API key',
  402: 'Plan limit: article quota, project cap, or a feature the plan lacks',
  404: 'No such resource in this account',
  409: 'The resource is in the wrong state for this operation, or was changed concurrently',
  413: 'Body larger than 1 MB',
  410: 'The cursor points before what is kept (older than retention): start again without it',
  415: 'Body is not JSON',
  422: 'Idempotency-Key reused with a different request',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Unexpected error; quote the request id',
};

type JsonSchema = Record<string, unknown>;

/**
 * Schemas named with `.meta({ id })` become `components.schemas` entries. zod emits them as local
 * `$defs`, which inside an OpenAPI document would resolve against the document root, so they are
 * lifted out and their references rewritten. A request-side variant that differs (defaults make
 * fields optional) is named `<id>Input`.
 */
type ToJsonSchema = (schema: z.ZodType, io: 'input' | 'output') => JsonSchema;

function createSchemaCollector() {
  const components: Record<string, JsonSchema> = {};
  const rewrite = (value: unknown, renames: Map<string, string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, renames));
    if (value === null || typeof value !== 'object') return value;
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')) {
        const name = child.slice('#/$defs/'.length);
        out.$ref = `#/components/schemas/${renames.get(name) ?? name}`;
      } else out[key] = rewrite(child, renames);
    }
    return out;
  };
  return {
    components,
    jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
      const {
        $schema: _ignored,
        $defs,
        ...rest
      } = z.toJSONSchema(schema, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
      }) as JsonSchema;
      const defs = ($defs ?? {}) as Record<string, JsonSchema>;
      const renames = new Map<string, string>();
      for (const [name, def] of Object.entries(defs)) {
        const existing = components[name];
        if (existing && JSON.stringify(existing) !== JSON.stringify(rewrite(def, new Map())))
          renames.set(name, `${name}Input`);
      }
      for (const [name, def] of Object.entries(defs))
        components[renames.get(name) ?? name] = rewrite(def, renames) as JsonSchema;
      return rewrite(rest, renames) as JsonSchema;
    },
  };
}

function pathParameters(route: Route, jsonSchema: ToJsonSchema) {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
  const shape = route.params instanceof z.ZodObject ? route.params.shape : {};
  return names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: shape[name] ? jsonSchema(shape[name] as z.ZodType, 'input') : { type: 'string' },
  }));
}

function queryParameters(route: Route, jsonSchema: ToJsonSchema) {
  if (!(route.query instanceof z.ZodObject)) return [];
  return Object.entries(route.query.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    schema: jsonSchema(schema, 'input'),
  }));
}

function responsesOf(route: Route, jsonSchema: ToJsonSchema) {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    if (schema === null) responses[status] = { description: 'No content' };
    else if ('binary' in schema && typeof schema.binary === 'string') {
      responses[status] = {
        description: 'File',
        content: { [schema.binary]: { schema: { type: 'string', contentEncoding: 'binary' } } },
      };
    } else if ('eventStream' in schema) {
      const data = jsonSchema(schema.eventStream as z.ZodType, 'output');
      responses[status] = {
        description:
          "Server-sent events (text/event-stream): each event's data is JSON of the schema in x-event-data",
        content: { 'text/event-stream': { schema: { type: 'string' }, 'x-event-data': data } },
      };
    } else
      responses[status] = {
        description: 'Success',
        content: { 'application/json': { schema: jsonSchema(schema as z.ZodType, 'output') } },
      };
  }
  const errors = new Set([
    400,
    429,
    500,
    ...(route.auth === 'none' ? [] : [401]),
    ...(route.errors ?? []),
  ]);
  if (route.body) {
    errors.add(413);
    errors.add(415);
  }
  if (route.method === 'post' && route.auth !== 'none') errors.add(422);
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

/** OpenAPI 3.1, generated from the same route declarations that validate requests. */
export function buildOpenApiDocument(routes: readonly Route[], publicUrl?: string) {
  const { components, jsonSchema } = createSchemaCollector();
  jsonSchema(ErrorBody, 'output'); // registers components.schemas.Error, which every error response names
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const parameters = [
      ...pathParameters(route, jsonSchema),
      ...queryParameters(route, jsonSchema),
    ];
    if (route.method === 'post' && route.auth !== 'none') {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 255 },
      } as never);
    }
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: `${route.method}${path
        .replace(/[{}]/g, '')
        .split('/')
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('')}`,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth === 'none' ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: !route.body.safeParse(undefined).success,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: responsesOf(route, jsonSchema),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Inkstream API',
      version: 'v1',
      description:
        'Content automation: projects, brand, topics, articles, publishing and webhooks. Every error is { error: { code, message } }.',
    },
    servers: [{ url: `${publicUrl ?? ''}/api/v1` }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An Inkstream API key: ink_…' },
      },
      schemas: components,
    },
    'x-error-codes': STATUS_BY_CODE,
  };
}
