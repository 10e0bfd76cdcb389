import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../../scripts/apiTypes.ts';
import { startInkstream } from '../support/inkstream.ts';

test("the web app's /api/v1 types are generated from the OpenAPI index the server serves now (run `npm run api-types` when this fails)", async () => {
  const inkstream = await startInkstream();
  try {
    const index = await inkstream.api().get('/');
    expect(index.status).toBe(200);
    const expected = await apiTypesSource(index.body);
    expect(
      readFileSync(API_TYPES_FILE, 'utf8') === expected,
      'web/src/api/v1.ts is stale: run `npm run api-types`',
    ).toBe(true);
  } finally {
    await inkstream.close();
  }
});
