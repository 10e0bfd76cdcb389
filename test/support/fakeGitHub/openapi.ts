import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validates JSON against GitHub's official OpenAPI descriptions (`@octokit/openapi` for the REST
 * API, `@octokit/openapi-webhooks` for webhook payloads), so that test doubles cannot drift from
 * the shapes GitHub really sends. Documents are loaded once per process and compiled lazily.
 */

type JsonObject = Record<string, unknown>;

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export class ContractViolation extends Error {
  constructor(what: string, errors: unknown) {
    super(
      `${what} does not match GitHub's OpenAPI description: ${JSON.stringify(errors, null, 2)}`,
    );
    this.name = 'ContractViolation';
  }
}

/**
 * OpenAPI 3.0 writes `nullable: true` beside a schema; JSON Schema needs `null` in the type (or an
 * `anyOf` with null where there is no `type`, as GitHub writes for `oneOf` users). Rewritten in place.
 */
function rewriteNullable(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(rewriteNullable);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonObject;
  for (const value of Object.values(schema)) rewriteNullable(value);
  if (schema.nullable !== true) return;
  delete schema.nullable;
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null))
      schema.enum = [...schema.enum, null];
    return;
  }
  const rest = { ...schema };
  for (const key of Object.keys(schema)) delete schema[key];
  schema.anyOf = [{ type: 'null' }, rest];
}

function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addFormat('repo.nwo', /^[^/]+\/[^/]+$/);
  ajv.addFormat('timestamp', true);
  return ajv;
}

function loadDocument(specifier: string, key: string, ajv: Ajv): JsonObject {
  const document = JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as JsonObject;
  rewriteNullable(document.components);
  ajv.addSchema(document, key);
  return document;
}

const pointer = (...segments: string[]) =>
  segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

let rest: { ajv: Ajv; document: JsonObject; cache: Map<string, ValidateFunction> } | undefined;

function restDocument() {
  if (!rest) {
    const ajv = createAjv();
    const document = loadDocument('@octokit/openapi/generated/api.github.com.json', 'rest', ajv);
    rest = { ajv, document, cache: new Map() };
  }
  return rest;
}

/** Where an operation lives in the REST description, by its operationId (`pulls/create`). */
export function findOperation(operationId: string): {
  path: string;
  method: string;
  operation: JsonObject;
} {
  const paths = restDocument().document.paths as Record<string, Record<string, JsonObject>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation && operation.operationId === operationId) return { path, method, operation };
    }
  }
  throw new Error(`GitHub's OpenAPI description has no operation ${operationId}`);
}

/**
 * The validator of one operation's response body for one status. A status the operation does not
 * document (every endpoint can answer 401, 429 or 5xx) is checked against GitHub's `basic-error`.
 */
export function restResponseValidator(operationId: string, status: number): ValidateFunction {
  const { ajv, cache } = restDocument();
  const cacheKey = `${operationId} ${status}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const { path, method, operation } = findOperation(operationId);
  const responses = operation.responses as Record<string, JsonObject>;
  let ref: string;
  if (responses[String(status)]) {
    const response = responses[String(status)];
    const named =
      typeof response.$ref === 'string' ? (response.$ref as string).slice(1) : undefined;
    const base = named ?? `/${pointer('paths', path, method, 'responses', String(status))}`;
    ref = `rest#${base}/content/application~1json/schema`;
  } else if (status >= 400) {
    ref = 'rest#/components/schemas/basic-error';
  } else {
    throw new Error(`${operationId} does not document a ${status} response`);
  }
  const validate = ajv.compile({ $ref: ref });
  cache.set(cacheKey, validate);
  return validate;
}

/** Throws a ContractViolation unless `body` is what GitHub documents for this operation and status. */
export function assertRestResponse(operationId: string, status: number, body: unknown): void {
  const validate = restResponseValidator(operationId, status);
  if (!validate(body))
    throw new ContractViolation(`${operationId} ${status} response`, validate.errors);
}

let webhooks: { ajv: Ajv; cache: Map<string, ValidateFunction> } | undefined;

/** Throws a ContractViolation unless `payload` matches the webhook schema (`pull-request-closed`). */
export function assertWebhookPayload(webhookName: string, payload: unknown): void {
  if (!webhooks) {
    const ajv = createAjv();
    loadDocument('@octokit/openapi-webhooks/generated/api.github.com.json', 'webhooks', ajv);
    webhooks = { ajv, cache: new Map() };
  }
  let validate = webhooks.cache.get(webhookName);
  if (!validate) {
    validate = webhooks.ajv.compile({
      $ref: `webhooks#/components/schemas/webhook-${webhookName}`,
    });
    webhooks.cache.set(webhookName, validate);
  }
  if (!validate(payload))
    throw new ContractViolation(`${webhookName} webhook payload`, validate.errors);
}
