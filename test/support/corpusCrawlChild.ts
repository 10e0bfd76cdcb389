/**
 * A child process for the corpus crawl's kill -9 test: crawls ORIGIN into the corpus store in
 * DATA_DIR under run RUN_ID, printing "read <n>" after every page it records, until it is killed.
 */
import { join } from 'node:path';
import { createLimiter } from '../../src/core/limiter.ts';
import { crawlCorpus } from '../../src/integrations/crawler/corpusCrawl.ts';
import { createSafeHttpClient } from '../../src/integrations/safeHttp/index.ts';
import { openSqliteSiteCorpus } from '../../src/integrations/siteCorpus/sqlite.ts';

const store = openSqliteSiteCorpus(join(process.env.DATA_DIR!, 'site-corpus.sqlite'));
const http = createSafeHttpClient({
  allowPrivateAddresses: true,
  originLimiter: createLimiter({ concurrency: 4 }),
});
store.startRun('prj_crash', process.env.RUN_ID!, new Date().toISOString());
const counted = {
  request: async (...args: Parameters<typeof http.request>) => {
    const response = await http.request(...args);
    // Printed once the page's row is written (the store call follows in the same tick).
    setImmediate(() => process.stdout.write(`read ${store.run('prj_crash')?.counts.read}\n`));
    return response;
  },
};
await crawlCorpus(
  {
    projectId: 'prj_crash',
    websiteUrl: process.env.ORIGIN!,
    maxPages: 5000,
    concurrency: 4,
    now: () => new Date().toISOString(),
    signal: new AbortController().signal,
  },
  counted,
  store,
);
process.stdout.write('finished\n');
