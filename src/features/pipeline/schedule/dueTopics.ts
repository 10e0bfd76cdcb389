import type { TopicDoc } from '../../../../projections/topics.ts';
import type { ReadStore } from '../../../readstore/port.ts';

/** An idle pass (nothing due) reads this many topics; each further page is four times bigger, up to MAX_PAGE. */
const FIRST_PAGE = 8;
const MAX_PAGE = 200;

/**
 * The scheduled topics whose time has come, by project, the earliest first. Read from the topics'
 * status + scheduledFor index until the first topic still ahead, so a pass reads the topics it
 * writes, not every topic ever scheduled for next year (which grew with the store). The first
 * page is small: most passes find nothing due, and a page of 200 topics read and parsed every 30 s
 * to see that the first is ahead was the scheduler's whole cost on an idle grown store.
 */
export async function dueTopics(
  readStore: ReadStore,
  nowMs: number,
): Promise<Map<string, TopicDoc[]>> {
  const byProject = new Map<string, TopicDoc[]>();
  let cursor: string | undefined;
  let limit = FIRST_PAGE;
  do {
    const page = await readStore.find<TopicDoc>('topics', {
      filter: { status: 'scheduled' },
      sort: { field: 'scheduledFor', direction: 'asc' },
      limit,
      cursor,
    });
    for (const topic of page.items) {
      if (!topic.scheduledFor) continue;
      if (Date.parse(topic.scheduledFor) > nowMs) return byProject;
      const project = byProject.get(topic.projectId);
      if (project) project.push(topic);
      else byProject.set(topic.projectId, [topic]);
    }
    cursor = page.nextCursor ?? undefined;
    limit = Math.min(MAX_PAGE, limit * 4);
  } while (cursor);
  return byProject;
}
