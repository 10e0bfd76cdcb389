import { setTimeout as delay } from 'node:timers/promises';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import type { PipelineContext } from '../context.ts';

const POLL_MS = 200;

/**
 * The project an article is written for. Writing right after the project was created would
 * otherwise miss the brand, so while the first crawl is still running this waits for it, at
 * most as long as a crawl may take; then it writes with what is known.
 */
export async function waitForCrawl(
  ctx: PipelineContext,
  projectId: string,
): Promise<ActiveProject | null> {
  const giveUpAt = Date.now() + ctx.crawl.deadlineMs + 15_000;
  for (;;) {
    const { state } = await loadStream(ctx.platform.eventStore, projectStream, projectId);
    if (state.status === 'none') return null;
    if (state.brand || state.crawl.status !== 'pending' || Date.now() >= giveUpAt) return state;
    await delay(POLL_MS, undefined, { signal: ctx.signal });
  }
}
