import { expect, test } from 'vitest';
import { z } from 'zod';
import { parseJsonReply } from '../../../src/integrations/llm/jsonText.ts';
import { toResponseSchema } from '../../../src/integrations/llm/jsonSchema.ts';

test('a closed schema with every field required qualifies for strict mode, without the dialect or int bounds', () => {
  const { schema, strict } = toResponseSchema(
    z.object({ n: z.number().int(), tags: z.array(z.string()) }),
  );
  expect(strict).toBe(true);
  expect(schema).toEqual({
    type: 'object',
    properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['n', 'tags'],
    additionalProperties: false,
  });
});

test('optional fields or open objects are sent non-strict', () => {
  expect(toResponseSchema(z.object({ a: z.string().optional() })).strict).toBe(false);
  expect(toResponseSchema(z.looseObject({ a: z.string() })).strict).toBe(false);
});

test('JSON is found bare, fenced, or inside prose', () => {
  expect(parseJsonReply('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  expect(parseJsonReply('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
  expect(parseJsonReply('Sure! Here it is: {"a":1} Enjoy.')).toEqual({ ok: true, value: { a: 1 } });
  expect(parseJsonReply('{"a":')).toMatchObject({
    ok: false,
    error: expect.stringMatching(/not valid JSON/),
  });
});
