/**
 * Site corpus figures (docs/site-corpus.md), each beside a baseline of the same run:
 * - a generated site of PAGES pages (sitemap index → gzipped sitemaps with lastmod, ETag and
 *   Last-Modified, every page answered after DELAY_MS), served by a child process, crawled
 *   completely with a per-origin limit of 4: pages/s against the 4 / DELAY_MS the limit allows
 *   (target ≥ 0.8×), and this process's resident memory over its idle figure (target ≤ +60 MB);
 * - a re-crawl of the unchanged site: full GETs (target ≤ 5%); then with 50 pages changed, which
 *   pages were read again (target: exactly those 50);
 * - FTS over 50,000 passages: p99 of a two-word query (target ≤ 5 ms) beside the p99 of a lookup
 *   by primary key in the same file (the floor a query cannot beat).
 * Run: npx node bench/siteCorpus.bench.ts   (BENCH_PAGES: 5000, BENCH_DELAY_MS: 50)
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLimiter } from '../src/core/limiter.ts';
import { crawlCorpus } from '../src/integrations/crawler/corpusCrawl.ts';
import { createSafeHttpClient } from '../src/integrations/safeHttp/index.ts';
import { openSqliteSiteCorpus } from '../src/integrations/siteCorpus/sqlite.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const PER_ORIGIN = 4;
const PASSAGES = 50_000;
const QUERIES = 2_000;

const site = fork(
  new URL('./load/corpusSiteProcess.ts', import.meta.url),
  [String(PAGES), String(DELAY_MS)],
  {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  },
);
process.on('exit', () => site.kill());
const replies: Array<(message: any) => void> = [];
site.on('message', (message) => replies.shift()?.(message));
const ask = (message?: unknown) =>
  new Promise<any>((resolve) => {
    replies.push(resolve);
    if (message) site.send(message as object);
  });
const { origin } = await ask();
console.error(`site at ${origin}`);

const dir = mkdtempSync(join(tmpdir(), 'corpus-bench-'));
const store = openSqliteSiteCorpus(join(dir, 'corpus.sqlite'));
const http = createSafeHttpClient({
  allowPrivateAddresses: true,
  originLimiter: createLimiter({ concurrency: PER_ORIGIN }),
});
const crawl = async (runId: string) => {
  store.startRun('prj_bench', runId, new Date().toISOString());
  const started = performance.now();
  await crawlCorpus(
    {
      projectId: 'prj_bench',
      websiteUrl: origin,
      maxPages: PAGES + 10,
      concurrency: PER_ORIGIN,
      now: () => new Date().toISOString(),
      signal: new AbortController().signal,
    },
    http,
    store,
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, run: store.finishRun('prj_bench', new Date().toISOString()) };
};

// Idle: the crawler's modules loaded (a one-page warm-up on another project), collected.
await import('../src/integrations/crawler/parsePage.ts');
(globalThis as { gc?: () => void }).gc?.();
const idleRss = process.memoryUsage().rss;
let peakRss = idleRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

console.error('idle measured; crawling');
const first = await crawl('run-1');
console.error(`crawled in ${first.seconds.toFixed(1)} s`);
const pagesPerSecond = first.run.counts.read / first.seconds;
const allowed = (PER_ORIGIN * 1000) / DELAY_MS;
clearInterval(sampler);

await ask({ type: 'reset' });
const second = await crawl('run-2');
const afterSecond = await ask({ type: 'fullGets' });
const recrawlFullGets = Object.values(afterSecond.fullGets as Record<string, number>).reduce(
  (a, b) => a + b,
  0,
);

await ask({ type: 'reset' });
const changed = Array.from({ length: 50 }, (_, k) => Math.floor((k * PAGES) / 50) + 1);
await ask({ type: 'change', indexes: changed });
const third = await crawl('run-3');
const afterThird = await ask({ type: 'fullGets' });
const readAgain = Object.keys(afterThird.fullGets).sort();
const expected = changed.map((i) => `/posts/post-${i}`).sort();
const exactlyChanged = JSON.stringify(readAgain) === JSON.stringify(expected);

// Search: a corpus of PASSAGES passages in a fresh file, over a vocabulary of VOCABULARY words
// used with Zipf-like frequencies (as in prose); the queries pair two words of middling frequency.
const VOCABULARY = 20_000;
const vocabulary = Array.from({ length: VOCABULARY }, (_, i) => `w${i.toString(36)}x`);
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const zipfWord = () =>
  vocabulary[Math.min(VOCABULARY - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY))) - 1)];
const searchStore = openSqliteSiteCorpus(join(dir, 'search.sqlite'));
searchStore.startRun('prj_s', 'run', new Date().toISOString());
const perPage = 10;
for (let p = 0; p < PASSAGES / perPage; p++) {
  const url = `https://example.com/p/${p}`;
  searchStore.enqueue('prj_s', [{ url, priority: 0, depth: 0 }]);
  const text = Array.from({ length: perPage }, (_, k) => {
    const sentence = Array.from({ length: 100 }, zipfWord).join(' ');
    return `## Part ${k}\n\n${sentence} page ${p} part ${k}.`;
  }).join('\n\n');
  searchStore.recordRead(
    'prj_s',
    {
      url,
      title: `Page ${p}`,
      description: null,
      headings: [],
      text,
      etag: null,
      lastModified: null,
    },
    null,
    new Date().toISOString(),
  );
}
console.error('search corpus built');
const p99 = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length * 0.99)];
const timeQueries = (run: (i: number) => unknown) => {
  for (let i = 0; i < 200; i++) run(i);
  const samples: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    run(i);
    samples.push(performance.now() - t);
  }
  return p99(samples);
};
console.error('timing queries');
const searchP99 = timeQueries((i) =>
  searchStore.search('prj_s', `${vocabulary[20 + (i % 400)]} ${vocabulary[40 + ((i * 7) % 400)]}`, {
    limit: 10,
  }),
);
const lookupP99 = timeQueries((i) =>
  searchStore.pageText('prj_s', `https://example.com/p/${i % 5000}`),
);

const result = {
  at: new Date().toISOString(),
  loadAverage: loadavg(),
  pages: PAGES,
  delayMs: DELAY_MS,
  perOrigin: PER_ORIGIN,
  crawl: {
    seconds: Number(first.seconds.toFixed(1)),
    read: first.run.counts.read,
    pagesPerSecond: Number(pagesPerSecond.toFixed(1)),
    allowedPagesPerSecond: allowed,
    ratio: Number((pagesPerSecond / allowed).toFixed(2)),
    idleRssMb: Math.round(idleRss / 1e6),
    peakRssOverIdleMb: Math.round((peakRss - idleRss) / 1e6),
  },
  recrawl: {
    seconds: Number(second.seconds.toFixed(1)),
    fullGets: recrawlFullGets,
    fullGetShare: Number((recrawlFullGets / PAGES).toFixed(3)),
    statuses: afterSecond.statuses,
    unchanged: second.run.counts.unchanged,
  },
  changed: {
    changed: 50,
    readAgain: readAgain.length,
    exactlyThose: exactlyChanged,
    read: third.run.counts.read,
  },
  search: {
    passages: PASSAGES,
    twoWordP99Ms: Number(searchP99.toFixed(3)),
    primaryKeyP99Ms: Number(lookupP99.toFixed(3)),
  },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/siteCorpus.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
store.close();
searchStore.close();
await http.close();
site.send({ type: 'stop' });
rmSync(dir, { recursive: true, force: true });
