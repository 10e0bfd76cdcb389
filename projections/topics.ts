import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import {
  TOPIC_EVENTS,
  type TopicEvent,
  type TopicOverlap,
  type TopicStatus,
} from '../src/domain/topics/topic.ts';

export type TopicDoc = {
  id: string;
  accountId: string;
  projectId: string;
  title: string;
  keyword: string | null;
  brief: string | null;
  status: TopicStatus;
  scheduledFor: string | null;
  priority: number;
  source: 'api' | 'research';
  runId: string | null;
  rationale: string | null;
  articleId: string | null;
  createdAt: string;
  updatedAt: string;
  overlap?: TopicOverlap | null;
};

export const topics = defineProjection<TopicDoc, TopicEvent>({
  name: 'topics',
  collection: 'topics',
  // The topic list (a project's, newest first, by status or not), a project's topics in id
  // order (the cadence scheduler, research) and the scheduled topics, the earliest due first (the
  // scheduler's pass): every index is written on each change of a topic.
  indexes: [
    { projectId: 1, createdAt: -1 },
    { projectId: 1, status: 1, createdAt: -1 },
    'projectId',
    { status: 1, scheduledFor: 1 },
  ],
  categories: ['topic'],
  events: TOPIC_EVENTS,
  documentId: (event) => String(event.data.topicId),
  begins: ['TopicCreated'],
  evolve(doc, event) {
    if (event.type === 'TopicCreated') {
      const { topicId, at, ...data } = event.data;
      return {
        id: topicId,
        accountId: event.metadata.accountId,
        ...data,
        articleId: null,
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!doc) return doc;
    const updatedAt = event.data.at;
    switch (event.type) {
      case 'TopicEdited': {
        const { topicId: _id, at: _at, ...changes } = event.data;
        return { ...doc, ...changes, updatedAt };
      }
      case 'TopicApproved':
        return { ...doc, status: 'approved', scheduledFor: null, updatedAt };
      case 'TopicRejected':
        return { ...doc, status: 'rejected', scheduledFor: null, updatedAt };
      case 'TopicScheduled':
        return { ...doc, status: 'scheduled', scheduledFor: event.data.scheduledFor, updatedAt };
      case 'TopicUnscheduled':
        return { ...doc, status: 'approved', scheduledFor: null, updatedAt };
      case 'TopicReprioritized':
        return { ...doc, priority: event.data.priority, updatedAt };
      case 'TopicWritten':
        return { ...doc, status: 'written', articleId: event.data.articleId, updatedAt };
      default:
        return doc;
    }
  },
});
