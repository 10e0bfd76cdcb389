import { afterAll, beforeAll } from 'vitest';
import { startInkstream, type TestInkstream } from './inkstream.ts';
import { startTestSite, type TestSite } from './testSite.ts';

/**
 * The common world of pipeline and API tests: the local test website and a real Inkstream,
 * started before the file's tests and closed after them. Read `app` and `site` inside tests.
 */
export function useSiteAndInkstream(): { readonly app: TestInkstream; readonly site: TestSite } {
  let app: TestInkstream | undefined;
  let site: TestSite | undefined;
  beforeAll(async () => {
    site = await startTestSite();
    app = await startInkstream();
  });
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the server starts in beforeAll');
      return app;
    },
    get site() {
      if (!site) throw new Error('the site starts in beforeAll');
      return site;
    },
  };
}
