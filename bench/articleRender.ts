/**
 * The article page of a 3,000-word article in headless Chromium against a static HTML page of the
 * same text served in the same run: navigation → the last paragraph of the body visible (median of
 * ROUNDS loads, each in a fresh browser context, so nothing is cached). The article page's time
 * includes the app shell, the session's access token, the lazy chunk (react-markdown, diff, uPlot)
 * and its API reads; the goal is within 2× of the static page.
 * Run: npx node bench/articleRender.ts [ROUNDS]   (needs web/dist built and /usr/bin/chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { accountIdForName } from '../src/domain/accounts/account.ts';
import { advanceArticle } from '../test/support/articleLife.ts';
import { launchChromium } from '../test/support/browser.ts';
import { startHttpServer } from '../test/support/httpServer.ts';
import { startInkstream } from '../test/support/inkstream.ts';
import { signedInMember } from '../test/support/signedInMember.ts';
import { stopPipeline } from '../test/support/stopPipeline.ts';

const rounds = Number(process.argv[2] ?? 10);
const WORDS = ['starter', 'flour', 'water', 'crumb', 'crust', 'oven', 'proof', 'dough', 'rye', 'wheat', 'salt', 'levain', 'bake', 'fold', 'rest', 'shape'];

/** 30 sections of 5 paragraphs of 20 words: 3,000 words, the last paragraph marked to wait for. */
const sections = Array.from({ length: 30 }, (_, section) => ({
  heading: `Section ${section + 1} of the guide`,
  paragraphs: Array.from({ length: 5 }, (_, paragraph) => Array.from({ length: 20 }, (_, word) => WORDS[(section * 7 + paragraph * 3 + word) % WORDS.length]).join(' ')),
}));
const LAST = 'The end of the guide.';
const markdown = `${sections.map((s) => `## ${s.heading}\n\n${s.paragraphs.map((p) => `${p}.`).join('\n\n')}`).join('\n\n')}\n\n${LAST}\n`;
const staticHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title></head><body><main><h1>A long guide</h1>${
  sections.map((s) => `<h2>${s.heading}</h2>${s.paragraphs.map((p) => `<p>${p}.</p>`).join('')}`).join('')}<p>${LAST}</p></main></body></html>`;

const app = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' } });
await stopPipeline(app);
const projectId = (await app.api().post('/projects', { name: 'Bench', websiteUrl: 'https://bench.example' })).body.project.id;
const topicId = (await app.api().post(`/projects/${projectId}/topics`, { title: 'A long guide' })).body.topic.id;
const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
await advanceArticle(app.platform, accountIdForName('test'), articleId, 'draft', { mdx: `---\ntitle: A long guide\n---\n\n${markdown}`, title: 'A long guide', wordCount: 3005 });
const staticSite = await startHttpServer((_req, res) => { res.setHeader('content-type', 'text/html; charset=utf-8'); res.end(staticHtml); });
const session = await signedInMember(app, { email: 'bench@test.example', role: 'editor' });
const [cookieName, cookieValue] = session.cookie!.split(/=(.*)/s, 2);

async function timeLoads(browser: Browser, url: string, signedIn: boolean): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext();
    if (signedIn) await context.addCookies([{ name: cookieName, value: cookieValue, url: app.url, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await page.getByText(LAST).waitFor({ state: 'visible', timeout: 60_000 });
    times.push(performance.now() - started);
    await context.close();
  }
  return times.sort((a, b) => a - b);
}

const browser = await launchChromium();
const staticTimes = await timeLoads(browser, staticSite.origin, false);
const pageTimes = await timeLoads(browser, `${app.url}/projects/${projectId}/articles/${articleId}`, true);
await browser.close();
await staticSite.close();
await app.close();

const median = (times: number[]) => Number(times[Math.floor(times.length / 2)].toFixed(1));
const results = {
  measuredAt: new Date().toISOString(), rounds, words: markdown.split(/\s+/).filter(Boolean).length,
  staticPageMs: { median: median(staticTimes), best: Number(staticTimes[0].toFixed(1)) },
  articlePageMs: { median: median(pageTimes), best: Number(pageTimes[0].toFixed(1)) },
  ratio: Number((median(pageTimes) / median(staticTimes)).toFixed(2)),
};
process.stdout.write(`static HTML page, ${results.words} words: median ${results.staticPageMs.median} ms, best ${results.staticPageMs.best} ms over ${rounds} loads\n`);
process.stdout.write(`article page, same text: median ${results.articlePageMs.median} ms, best ${results.articlePageMs.best} ms (${results.ratio}× the static page; goal ≤ 2×)\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'articleRender.json'), `${JSON.stringify(results, null, 2)}\n`);
