/**
 * The article page of a 3,000-word article in headless Chromium against a static HTML page of the
 * same text (same words, same headings and paragraphs) served in the same run.
 * "Rendered" = the article's last paragraph is in the DOM and the frame holding it has been painted,
 * timed in the page since navigation start (bench/articleRender/renderedProbe.ts). Each load is cold
 * (a fresh browser context: no HTTP or code cache); the two pages alternate load by load so a
 * change in the host's load hits both; medians of ROUNDS loads each. The article page's time holds
 * the app shell, the session check, the access token, the article's read, its chunk
 * (react-markdown, remark-gfm, rehype-sanitize) and the Markdown parse; the goal is within 2×.
 * The server puts the article's body, rendered and sanitized, in the page's first response, so the
 * last paragraph is painted from that; the second figure is when the app's own body (with its
 * marks, links and actions: the page interactive) has replaced it and been painted.
 * The harness's wall time (goto → rendered, Playwright's own round trips included, for both) is
 * printed beside it. Where the time goes: bench/articleRender/trace.ts.
 * Run: npx node bench/articleRender.ts [ROUNDS]   (needs web/dist built and /usr/bin/chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/support/browser.ts';
import { loadOnce } from './articleRender/load.ts';
import { markdown, startArticleBench } from './articleRender/setup.ts';

const rounds = Number(process.argv[2] ?? 10);
const bench = await startArticleBench();
const browser = await launchChromium();
const loadAverage = [loadavg()[0]];
const staticLoads: Awaited<ReturnType<typeof loadOnce>>[] = [];
const articleLoads: typeof staticLoads = [];
for (let round = 0; round < rounds; round++) {
  staticLoads.push(await loadOnce(browser, bench.staticUrl));
  articleLoads.push(await loadOnce(browser, bench.articleUrl, bench.cookie));
}
loadAverage.push(loadavg()[0]);
await browser.close();
await bench.close();

const median = (values: number[]) =>
  Number([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1));
const summary = (loads: typeof staticLoads) => ({
  paintedMs: median(loads.map((load) => load.painted)),
  inDomMs: median(loads.map((load) => load.inDom)),
  bestPaintedMs: Number(Math.min(...loads.map((load) => load.painted)).toFixed(1)),
  wallMs: median(loads.map((load) => load.wallMs)),
  appPaintedMs: loads.every((load) => load.appPainted !== null)
    ? median(loads.map((load) => load.appPainted!))
    : null,
});
const staticPage = summary(staticLoads);
const articlePage = summary(articleLoads);
const results = {
  measuredAt: new Date().toISOString(),
  rounds,
  words: markdown.split(/\s+/).filter(Boolean).length,
  loadAverage: loadAverage.map((value) => Number(value.toFixed(1))),
  staticPage,
  articlePage,
  ratio: Number((articlePage.paintedMs / staticPage.paintedMs).toFixed(2)),
  interactiveRatio:
    articlePage.appPaintedMs === null
      ? null
      : Number((articlePage.appPaintedMs / staticPage.paintedMs).toFixed(2)),
  wallRatio: Number((articlePage.wallMs / staticPage.wallMs).toFixed(2)),
};
const line = (name: string, page: typeof staticPage) =>
  `${name}: last paragraph painted at median ${page.paintedMs} ms (in the DOM ${page.inDomMs} ms, best painted ${page.bestPaintedMs} ms; harness wall ${page.wallMs} ms)\n`;
process.stdout.write(
  `${results.words} words, ${rounds} cold loads of each page, alternating; load average ${results.loadAverage.join(' → ')}\n`,
);
process.stdout.write(line('static HTML page', staticPage));
process.stdout.write(line('article page    ', articlePage));
process.stdout.write(
  `article page ÷ static page: ${results.ratio}× (goal ≤ 2×); by the harness's wall time ${results.wallRatio}×\n`,
);
process.stdout.write(
  `the app's own body (the page interactive) painted at median ${articlePage.appPaintedMs} ms: ${results.interactiveRatio}× the static page\n`,
);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'articleRender.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
