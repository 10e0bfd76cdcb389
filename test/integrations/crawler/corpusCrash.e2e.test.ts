import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { crawlCorpus } from '../../../src/integrations/crawler/corpusCrawl.ts';
import { createSafeHttpClient } from '../../../src/integrations/safeHttp/index.ts';
import { openSqliteSiteCorpus } from '../../../src/integrations/siteCorpus/sqlite.ts';
import { startCorpusSite } from '../../support/corpusSite.ts';

const CHILD = join(import.meta.dirname, '../../support/corpusCrawlChild.ts');
const PAGES = 80;

test('kill -9 at half the crawl: the restarted crawl finishes it, fetching again only what was in flight', async () => {
  const site = await startCorpusSite({ pages: PAGES, delayMs: 10 });
  const dataDir = mkdtempSync(join(tmpdir(), 'corpus-crash-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [CHILD], {
        env: { ...process.env, DATA_DIR: dataDir, ORIGIN: site.origin, RUN_ID: 'run-1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout.on('data', (chunk: Buffer) => {
        const counts = [...chunk.toString().matchAll(/read (\d+)/g)].map((m) => Number(m[1]));
        if (counts.some((count) => count >= PAGES / 2)) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('exit', (_code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error('the child ended before the kill')),
      );
    });
    const store = openSqliteSiteCorpus(join(dataDir, 'site-corpus.sqlite'));
    const http = createSafeHttpClient({ allowPrivateAddresses: true });
    try {
      const before = store.run('prj_crash')!.counts.read;
      expect(before).toBeGreaterThanOrEqual(PAGES / 2);
      expect(before).toBeLessThan(PAGES + 1);
      store.startRun('prj_crash', 'run-1', new Date().toISOString());
      await crawlCorpus(
        {
          projectId: 'prj_crash',
          websiteUrl: site.origin,
          maxPages: 5000,
          now: () => new Date().toISOString(),
          signal: new AbortController().signal,
        },
        http,
        store,
      );
      expect(store.run('prj_crash')!.counts).toMatchObject({ read: PAGES + 1, queued: 0 });
      const twice = [...site.fullGets().entries()].filter(([, count]) => count > 1);
      expect(twice.length).toBeLessThanOrEqual(4); // at most the requests in flight at the kill
    } finally {
      store.close();
      await http.close();
    }
  } finally {
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
