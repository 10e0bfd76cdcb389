import type { TopicDoc } from '../../../../projections/topics.ts';
import type { ReadStore } from '../../../readstore/port.ts';

const PAGE = 200;

/**
 * The scheduled topics whose time has come, by project, the earliest first. Read from the topics'
 * status + scheduledFor index until the first topic still ahead, so a pass reads the topics it
 * writes, not every topic ever scheduled for next year (which grew with the store).
 */
export async function dueTopics(readStore: ReadStore, nowMs: number): Promise<Map<string, TopicDoc[]>> {
  const byProject = new Map<string, TopicDoc[]>();
  let cursor: string | undefined;
  do {
    const page = await readStore.find<TopicDoc>('topics', { filter: { status: 'scheduled' }, sort: { field: 'scheduledFor', direction: 'asc' }, limit: PAGE, cursor });
    for (const topic of page.items) {
      if (!topic.scheduledFor) continue;
      if (Date.parse(topic.scheduledFor) > nowMs) return byProject;
      const project = byProject.get(topic.projectId);
      if (project) project.push(topic);
      else byProject.set(topic.projectId, [topic]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return byProject;
}
