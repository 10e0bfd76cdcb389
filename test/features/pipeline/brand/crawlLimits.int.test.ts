import type http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { crawlProcess } from '../../../../src/features/pipeline/brand/crawl.ts';
import type { RunningWorker } from '../../../../src/consumers/worker.ts';
import {
  createPipelineContext,
  type PipelineContext,
} from '../../../../src/features/pipeline/context.ts';
import { eventually } from '../../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../../support/inkstream.ts';
import { startHttpServer, type LocalServer } from '../../../support/httpServer.ts';
import { stopPipeline } from '../../../support/stopPipeline.ts';
import { page } from '../../../support/testSite.ts';

/**
 * Crawls are bounded per destination: at most INKSTREAM_CRAWL_CONCURRENCY_PER_ORIGIN requests in
 * flight at one origin, whatever the crawl's own concurrency (3), and one crawl at a time per
 * site. The server's own crawl consumer is stopped; the crawl process manager is driven here, with
 * the pipeline's real context, on the events the API appended.
 */
const PER_ORIGIN = 2;
const PAGES = ['/a', '/b', '/c', '/d', '/e', '/f'];

type GatedSite = LocalServer & {
  inFlight: number;
  maxInFlight: number;
  /** Page requests (not robots.txt or the sitemap) wait here until the gate opens. */
  open(): void;
  log: Array<{ path: string; at: 'start' | 'end' }>;
};

/** A small site (with a sitemap of six pages, or none); it counts the requests it is answering at once. */
async function startGatedSite(gated: boolean, pages: readonly string[]): Promise<GatedSite> {
  let release: () => void = () => {};
  let gate: Promise<void> = gated
    ? new Promise((resolve) => {
        release = resolve;
      })
    : Promise.resolve();
  const site = {
    inFlight: 0,
    maxInFlight: 0,
    log: [] as GatedSite['log'],
    open: () => {
      gate = Promise.resolve();
      release();
    },
  };
  const answer = (req: http.IncomingMessage, res: http.ServerResponse, origin: string) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path === '/sitemap.xml') {
      const urls = pages.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      return res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        );
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        page(
          `<main><h1>Page ${path}</h1><p>We bake bread for the neighbourhood every morning.</p></main>`,
        ),
      );
  };
  const server: LocalServer = await startHttpServer((req, res) => {
    const path = req.url ?? '/';
    site.log.push({ path, at: 'start' });
    site.inFlight += 1;
    site.maxInFlight = Math.max(site.maxInFlight, site.inFlight);
    res.on('close', () => {
      site.inFlight -= 1;
      site.log.push({ path, at: 'end' });
    });
    const isPage = path !== '/robots.txt' && path !== '/sitemap.xml';
    void (isPage ? gate : Promise.resolve()).then(() => answer(req, res, server.origin));
  });
  return Object.assign(site, server) as GatedSite;
}

let app: TestInkstream;
let ctx: PipelineContext;
const sites: GatedSite[] = [];
let running: RunningWorker;
beforeAll(async () => {
  app = await startInkstream({
    env: { INKSTREAM_CRAWL_CONCURRENCY_PER_ORIGIN: String(PER_ORIGIN) },
  });
  await stopPipeline(app);
  ctx = createPipelineContext(app.platform);
  running = await ctx.lifecycle.start(undefined);
});
afterAll(async () => {
  await running.stop();
  await app.close();
  await Promise.all(sites.map((site) => site.close()));
});

async function site(gated: boolean, pages: readonly string[] = PAGES): Promise<GatedSite> {
  const started = await startGatedSite(gated, pages);
  sites.push(started);
  return started;
}

/** Creates a project through the API and returns the crawl its creation requested, ready to be handled. */
async function requestedCrawl(websiteUrl: string) {
  const { project } = (await app.api().post('/projects', { name: 'Bakery', websiteUrl })).body;
  const events = await app.platform.eventStore.readStream(`project-${project.id}`);
  return {
    projectId: project.id as string,
    event: events.find((event) => event.type === 'BrandCrawlRequested')!,
  };
}
const crawlStatus = async (projectId: string) =>
  (await app.api().get(`/projects/${projectId}`)).body.project.crawl.status;

test('a crawl never has more than the per-origin limit in flight at its site, and a crawl of another site is not slowed by it', async () => {
  const slow = await site(true);
  const fast = await site(false);
  const crawls = crawlProcess(ctx);
  const first = await requestedCrawl(slow.origin);
  const second = await requestedCrawl(fast.origin);

  const slowCrawl = crawls.handle(first.event);
  await eventually(
    async () => slow.inFlight,
    (n) => n === PER_ORIGIN,
    { what: 'the slow site to hold its turns' },
  );
  await crawls.handle(second.event); // finishes while the slow site still holds every turn it has
  expect(await crawlStatus(second.projectId)).toBe('done');
  expect(slow.inFlight).toBe(PER_ORIGIN);

  slow.open();
  await slowCrawl;
  expect(await crawlStatus(first.projectId)).toBe('done');
  expect(slow.maxInFlight).toBe(PER_ORIGIN); // the crawl itself would run 3 at once
});

test('a second crawl of the same site waits until the first one is finished', async () => {
  // No sitemap pages: the first crawl waits on its home page alone, so the origin still has a free turn.
  const shared = await site(true, []);
  const crawls = crawlProcess(ctx);
  const first = await requestedCrawl(shared.origin);
  const second = await requestedCrawl(`${shared.origin}/`);

  const firstCrawl = crawls.handle(first.event);
  await eventually(
    async () => shared.inFlight,
    (n) => n === 1,
    { what: 'the first crawl to wait on its home page' },
  );
  const secondCrawl = crawls.handle(second.event);
  await eventually(
    async () => ctx.crawlSites.waiting(new URL(shared.origin).host),
    (n) => n === 1,
    { what: 'the second crawl to queue' },
  );
  // The origin has a free turn, yet the second crawl has not even asked for robots.txt.
  expect(
    shared.log.filter((entry) => entry.path === '/robots.txt' && entry.at === 'start'),
  ).toHaveLength(1);

  shared.open();
  await Promise.all([firstCrawl, secondCrawl]);
  expect([await crawlStatus(first.projectId), await crawlStatus(second.projectId)]).toEqual([
    'done',
    'done',
  ]);
  const secondStart = shared.log.findLastIndex(
    (entry) => entry.path === '/robots.txt' && entry.at === 'start',
  );
  const before = shared.log.slice(0, secondStart);
  expect(before.filter((entry) => entry.at === 'start')).toHaveLength(
    before.filter((entry) => entry.at === 'end').length,
  );
});
