import { ACCOUNT_EVENTS, type AccountEvent } from '../../src/domain/accounts/account.ts';
import { ARTICLE_EVENTS, type ArticleEvent } from '../../src/domain/articles/article.ts';
import { PROJECT_EVENTS, type ProjectEvent } from '../../src/domain/projects/project.ts';
import { TOPIC_EVENTS, type TopicEvent } from '../../src/domain/topics/topic.ts';
import { defineProjection } from '../../src/readstore/projection.ts';

/** A read model that notices a skipped or repeated event: each stream's revisions must arrive 0, 1, 2, … */
export const revisionAudit = defineProjection<
  {
    id: string;
    applied: number;
    lastRevision: number;
    anomalies: string[];
  },
  ProjectEvent | TopicEvent | ArticleEvent | AccountEvent
>({
  name: 'revisionAudit',
  collection: 'revision_audit',
  indexes: [],
  categories: ['project', 'topic', 'article', 'account'],
  events: { ...PROJECT_EVENTS, ...TOPIC_EVENTS, ...ARTICLE_EVENTS, ...ACCOUNT_EVENTS },
  documentId: (event) => event.stream,
  evolve(doc, event) {
    const current = doc ?? { id: event.stream, applied: 0, lastRevision: -1, anomalies: [] };
    const revision = Number(event.revision);
    const anomalies =
      revision === current.lastRevision + 1
        ? current.anomalies
        : [...current.anomalies, `expected ${current.lastRevision + 1}, got ${revision}`];
    return { ...current, applied: current.applied + 1, lastRevision: revision, anomalies };
  },
});
