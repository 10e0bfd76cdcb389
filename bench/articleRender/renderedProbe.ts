/**
 * What "rendered" means in the article benches, measured inside the page on its own clock (ms since
 * navigation start, so the harness's round trips count for neither page): `inDom` when a mutation
 * first puts the last paragraph's text in the document, `painted` when the frame that holds it has
 * been painted (a task posted from the next animation frame runs after that frame's paint). Then it
 * logs RENDERED to the console, which the harness waits for without running anything in the page
 * (Playwright's own waiting would inject and run its script on the main thread being timed).
 * Installed with `context.addInitScript(renderedProbe, { last: LAST_PARAGRAPH, signal: RENDERED })`
 * before the page's own scripts (an init script is sent as source: it can name only its argument).
 */
export type RenderedTimes = { inDom: number; painted: number };
export const RENDERED = 'articleRender: rendered';

// The browser's globals the probe uses (the root tsconfig has no DOM library; these stay in this module).
declare const window: { __rendered?: RenderedTimes };
declare const document: object;
declare function requestAnimationFrame(callback: () => void): number;
type Added = { addedNodes: Iterable<{ textContent: string | null }> };
declare const MutationObserver: new (callback: (records: Added[]) => void) => { observe(target: object, options: object): void; disconnect(): void };
declare const MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(message: null): void } };

export function renderedProbe({ last, signal }: { last: string; signal: string }): void {
  const holds = (node: { textContent: string | null }) => (node.textContent ?? '').includes(last);
  const observer = new MutationObserver((records) => {
    if (!records.some((record) => [...record.addedNodes].some(holds))) return;
    observer.disconnect();
    const inDom = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        window.__rendered = { inDom, painted: performance.now() };
        console.debug(signal);
      };
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}
