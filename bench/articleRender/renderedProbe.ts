/**
 * What "rendered" means in the article benches, measured inside the page on its own clock (ms since
 * navigation start, so the harness's round trips count for neither page): `inDom` when a mutation
 * first puts the last paragraph's text in the document, `painted` when the frame that holds it has
 * been painted (a task posted from the next animation frame runs after that frame's paint). On the
 * article page (`app`), the server's first response already holds the text, so the probe also
 * times the app's own body (`appInDom`, `appPainted`): the last paragraph put inside the app's root
 * by React, the page then interactive with its marks, links and actions. Once all it waits for is
 * in, it logs RENDERED to the console, which the harness waits for without running anything in the
 * page (Playwright's own waiting would inject and run its script on the main thread being timed).
 * Installed with `context.addInitScript(renderedProbe, { last: LAST_PARAGRAPH, signal: RENDERED, app })`
 * before the page's own scripts (an init script is sent as source: it can name only its argument).
 */
export type RenderedTimes = {
  inDom: number;
  painted: number;
  appInDom: number | null;
  appPainted: number | null;
};
export const RENDERED = 'articleRender: rendered';

// The browser's globals the probe uses (the root tsconfig has no DOM library; these stay in this module).
type DomNode = { nodeType: number; textContent: string | null; parentNode: DomNode | null };
declare const window: { __rendered?: RenderedTimes };
declare const document: { getElementById(id: string): { contains(node: DomNode): boolean } | null };
declare function requestAnimationFrame(callback: () => void): number;
type Added = { addedNodes: Iterable<DomNode> };
declare const MutationObserver: new (
  callback: (records: Added[]) => void,
) => { observe(target: object, options: object): void; disconnect(): void };
declare const MessageChannel: new () => {
  port1: { onmessage: (() => void) | null };
  port2: { postMessage(message: null): void };
};

export function renderedProbe({
  last,
  signal,
  app,
}: {
  last: string;
  signal: string;
  app: boolean;
}): void {
  const times: RenderedTimes = { inDom: 0, painted: 0, appInDom: null, appPainted: null };
  let first = false;
  let own = false;
  // The parser may add the paragraph's text as a node of its own: look at the element holding it.
  const holder = (node: DomNode) => (node.nodeType === 3 ? node.parentNode : node);
  const holds = (node: DomNode | null) => node !== null && (node.textContent ?? '').includes(last);
  const afterPaint = (then: () => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = then;
      channel.port2.postMessage(null);
    });
  const finish = () => {
    if (times.painted === 0 || (app && times.appPainted === null)) return;
    observer.disconnect();
    window.__rendered = times;
    console.debug(signal);
  };
  const observer = new MutationObserver((records) => {
    for (const node of records.flatMap((record) => [...record.addedNodes].map(holder))) {
      if (!holds(node)) continue;
      if (!first) {
        first = true;
        times.inDom = performance.now();
        afterPaint(() => {
          times.painted = performance.now();
          finish();
        });
      }
      if (app && !own && document.getElementById('root')?.contains(node!)) {
        own = true;
        times.appInDom = performance.now();
        afterPaint(() => {
          times.appPainted = performance.now();
          finish();
        });
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}
