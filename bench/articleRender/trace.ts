/**
 * Where the article page's time goes: one cold load of each page under a Chromium trace, printed
 * as a waterfall in ms since the document was requested: every request (sent → finished), the
 * main thread's tasks over 10 ms with what ran inside them (module evaluation, React's work and
 * the Markdown parse as FunctionCall, style, layout, paint), then renderedProbe.ts's in-page times.
 * Run: npx node bench/articleRender/trace.ts   (needs web/dist built and /usr/bin/chromium)
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../test/support/browser.ts';
import { RENDERED, renderedProbe, type RenderedTimes } from './renderedProbe.ts';
import type { Cookie } from './load.ts';
import { LAST_PARAGRAPH, startArticleBench } from './setup.ts';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
};

const bench = await startArticleBench();
const browser = await launchChromium();
for (const [label, url, cookie] of [
  ['static page', bench.staticUrl, undefined],
  ['article page', bench.articleUrl, bench.cookie],
] as const) {
  process.stdout.write(`\n== ${label}\n${await traceLoad(browser, url, cookie)}`);
}
await browser.close();
await bench.close();

async function traceLoad(browser: Browser, url: string, cookie?: Cookie): Promise<string> {
  const context = await browser.newContext();
  if (cookie) await context.addCookies([cookie]);
  await context.addInitScript(renderedProbe, {
    last: LAST_PARAGRAPH,
    signal: RENDERED,
    app: cookie !== undefined,
  });
  const page = await context.newPage();
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      'loading',
    ],
  });
  const rendered = page.waitForEvent('console', {
    predicate: (message) => message.text() === RENDERED,
    timeout: 60_000,
  });
  await page.goto(url);
  await rendered;
  const times = (await page.evaluate('window.__rendered')) as RenderedTimes;
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: TraceEvent[];
  };
  await context.close();
  return waterfall(trace.traceEvents, url, times);
}

function waterfall(events: TraceEvent[], url: string, times: RenderedTimes): string {
  const sent = events.filter((event) => event.name === 'ResourceSendRequest');
  const documentRequest = sent.find((event) => event.args?.data?.url === url);
  if (!documentRequest) return 'no request for the page in the trace\n';
  const t0 = documentRequest.ts;
  const ms = (ts: number) => ((ts - t0) / 1000).toFixed(1).padStart(7);
  const rows: { at: number; line: string }[] = [];
  const finished = new Map(
    events
      .filter((event) => event.name === 'ResourceFinish')
      .map((event) => [event.args?.data?.requestId, event.ts]),
  );
  for (const request of sent) {
    const data = request.args!.data!;
    const end = finished.get(data.requestId);
    rows.push({
      at: request.ts,
      line: `${ms(request.ts)} → ${end ? ms(end) : '      …'}  request ${data.requestMethod ?? ''} ${String(data.url).replace(/^https?:\/\/[^/]+/, '')}`,
    });
  }
  // The page's renderer main thread: the one that ran the most (about:blank's renderer runs too).
  const busy = new Map<string, number>();
  for (const event of events)
    if (event.name === 'RunTask' && event.ts >= t0)
      busy.set(
        `${event.pid}:${event.tid}`,
        (busy.get(`${event.pid}:${event.tid}`) ?? 0) + (event.dur ?? 0),
      );
  const renderers = events.filter(
    (event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
  );
  const main = renderers.sort(
    (a, b) => (busy.get(`${b.pid}:${b.tid}`) ?? 0) - (busy.get(`${a.pid}:${a.tid}`) ?? 0),
  )[0];
  const onMain = (event: TraceEvent) =>
    main !== undefined && event.pid === main.pid && event.tid === main.tid && event.ph === 'X';
  for (const task of events.filter(
    (event) =>
      onMain(event) && event.name === 'RunTask' && event.ts >= t0 && (event.dur ?? 0) > 10_000,
  )) {
    const inside = events.filter(
      (event) =>
        onMain(event) &&
        event.ts >= task.ts &&
        event.ts < task.ts + task.dur! &&
        event.name !== 'RunTask' &&
        (event.dur ?? 0) > 5_000,
    );
    const what = [...new Set(inside.map(describe))].slice(0, 5).join(', ');
    rows.push({
      at: task.ts,
      line: `${ms(task.ts)} → ${ms(task.ts + task.dur!)}  main thread ${(task.dur! / 1000).toFixed(1)} ms: ${what}`,
    });
  }
  const lines = rows.sort((a, b) => a.at - b.at).map((row) => row.line);
  const own =
    times.appPainted === null
      ? ''
      : `; the app's own body in the DOM at ${times.appInDom!.toFixed(1)} ms, painted at ${times.appPainted.toFixed(1)} ms`;
  return `${lines.join('\n')}\nin page, since navigation start: last paragraph in the DOM at ${times.inDom.toFixed(1)} ms, painted at ${times.painted.toFixed(1)} ms${own}\n`;
}

function describe(event: TraceEvent): string {
  const data = event.args?.data ?? {};
  const where =
    typeof data.url === 'string' && data.url ? ` ${data.url.replace(/^https?:\/\/[^/]+/, '')}` : '';
  return `${event.name}${where} ${((event.dur ?? 0) / 1000).toFixed(1)}`;
}
