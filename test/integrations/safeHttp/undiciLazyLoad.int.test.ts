import { expect, test } from 'vitest';
import { loadsOfFirstUse } from '../../support/lazyLoad.ts';

test('undici is loaded by the first outbound request, not by a start that sends none', async () => {
  const { atStart, afterUse, result } = await loadsOfFirstUse(
    ['undici'],
    `
    const { createSafeHttpClient } = await import(root + '/src/integrations/safeHttp/index.ts');
    const client = createSafeHttpClient({ allowPrivateAddresses: true });
    const response = await client.request(inkstream.url + '/api/v1/projects');
    await client.close();
    return response.status;
  `,
  );
  expect(atStart).toEqual([]);
  expect(afterUse).toEqual(['undici']);
  expect(result).toBe(401); // the request really went out: the server refused it for want of a key
}, 150_000);
