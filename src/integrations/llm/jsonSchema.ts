import { z } from 'zod';

type Json = { [key: string]: unknown };

/** zod adds these bounds to every `.int()`; they are noise to a model and some servers reject them. */
const SAFE_INT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Keywords OpenAI's strict mode refuses; a schema using them is sent with `strict: false`. */
const NOT_STRICT = [
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'dependentSchemas',
];

/**
 * The JSON Schema sent as `response_format.json_schema.schema`, and whether it qualifies for strict
 * mode (every object closed and listing all its properties as required). zod still validates the
 * answer either way.
 */
export function toResponseSchema(schema: z.ZodType): { schema: Json; strict: boolean } {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Json;
  const cleaned = clean(json) as Json;
  return { schema: cleaned, strict: isStrictCompatible(cleaned) };
}

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_INT_BOUNDS.has(value as number)) continue;
    if (key === 'default') continue; // a default lets zod read an older answer; strict mode refuses the keyword
    out[key] = clean(value);
  }
  return out;
}

function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible);
  if (node === null || typeof node !== 'object') return true;
  const json = node as Json;
  if (NOT_STRICT.some((key) => key in json)) return false;
  if (json.type === 'object' || json.properties) {
    const properties = Object.keys((json.properties as Json | undefined) ?? {});
    const required = new Set((json.required as string[] | undefined) ?? []);
    if (json.additionalProperties !== false) return false;
    if (!properties.every((name) => required.has(name))) return false;
  }
  return Object.values(json).every(isStrictCompatible);
}
