import { TOPIC_STATUSES } from '../src/domain/topics/topic.ts';
import { defineTally } from '../src/readstore/tally.ts';

/** How many of each project's topics have each status, counted in the commit that writes the topics. */
export const projectTopicCounts = defineTally({
  name: 'projectTopicCounts',
  collection: 'project_topic_counts',
  source: 'topics',
  groupBy: 'projectId',
  countBy: 'status',
  values: TOPIC_STATUSES,
});
