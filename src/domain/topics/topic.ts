import type { EventNames } from '../../eventstore/handleCommand.ts';
export const TOPIC_STATUSES = [
  'suggested',
  'approved',
  'scheduled',
  'rejected',
  'written',
] as const;
export type TopicStatus = (typeof TOPIC_STATUSES)[number];

/**
 * A topic added by hand that competes with a page the site already has (a crawled page, or an
 * article Inkstream published): which one, and the advice to refresh it instead.
 */
export type TopicOverlap = {
  url: string;
  title: string;
  source: 'site' | 'article';
  articleId: string | null;
  advice: string;
};

export type TopicEvent =
  | {
      type: 'TopicCreated';
      data: {
        topicId: string;
        projectId: string;
        title: string;
        keyword: string | null;
        brief: string | null;
        status: 'approved' | 'suggested' | 'scheduled';
        scheduledFor: string | null;
        priority: number;
        source: 'api' | 'research';
        runId: string | null;
        rationale: string | null;
        at: string;
        /** Absent on topics created before overlaps were checked. */
        overlap?: TopicOverlap | null;
      };
    }
  | {
      type: 'TopicEdited';
      data: {
        topicId: string;
        title?: string;
        keyword?: string | null;
        brief?: string | null;
        at: string;
      };
    }
  | { type: 'TopicApproved'; data: { topicId: string; at: string } }
  | { type: 'TopicRejected'; data: { topicId: string; at: string } }
  | { type: 'TopicScheduled'; data: { topicId: string; scheduledFor: string; at: string } }
  | { type: 'TopicUnscheduled'; data: { topicId: string; at: string } }
  | { type: 'TopicReprioritized'; data: { topicId: string; priority: number; at: string } }
  /** Carries what QueueArticle needs, so a consumer can queue the article if the request died in between. */
  | {
      type: 'TopicWritten';
      data: {
        topicId: string;
        articleId: string;
        projectId: string;
        title: string;
        keyword: string | null;
        brief: string | null;
        trigger: 'api' | 'schedule' | 'cadence';
        at: string;
      };
    };

/** Every type of TopicEvent, as data: a read model skips (and logs) a type it does not know. */
export const TOPIC_EVENTS: EventNames<TopicEvent> = {
  TopicCreated: true,
  TopicEdited: true,
  TopicApproved: true,
  TopicRejected: true,
  TopicScheduled: true,
  TopicUnscheduled: true,
  TopicReprioritized: true,
  TopicWritten: true,
};

export type ActiveTopic = {
  status: TopicStatus;
  id: string;
  projectId: string;
  title: string;
  keyword: string | null;
  brief: string | null;
  scheduledFor: string | null;
  priority: number;
  articleId: string | null;
};
export type Topic = { status: 'none' } | ActiveTopic;

export const TOPIC_CATEGORY = 'topic';

/** A topic's priority when neither its creator nor research gives one (0–100, higher first). */
export const DEFAULT_PRIORITY = 50;

/**
 * The topic state machine, as data: the statuses a PATCH may move a topic to from each status.
 * `written` is reached only by POST /topics/:id/write (from approved, scheduled or suggested).
 */
export const topicTransitions = {
  suggested: ['approved', 'rejected', 'scheduled'],
  approved: ['rejected', 'scheduled'],
  scheduled: ['approved', 'rejected', 'scheduled'],
  rejected: ['approved'],
  written: [],
} as const satisfies Record<TopicStatus, readonly TopicStatus[]>;

export const writableFrom: readonly TopicStatus[] = ['approved', 'scheduled', 'suggested'];

export const initialTopic = (): Topic => ({ status: 'none' });

export function evolveTopic(state: Topic, event: TopicEvent): Topic {
  if (event.type === 'TopicCreated') {
    const { topicId, projectId, title, keyword, brief, status, scheduledFor, priority } =
      event.data;
    return {
      status,
      id: topicId,
      projectId,
      title,
      keyword,
      brief,
      scheduledFor,
      priority,
      articleId: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'TopicEdited': {
      const { topicId: _id, at: _at, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'TopicApproved':
      return { ...state, status: 'approved', scheduledFor: null };
    case 'TopicRejected':
      return { ...state, status: 'rejected', scheduledFor: null };
    case 'TopicScheduled':
      return { ...state, status: 'scheduled', scheduledFor: event.data.scheduledFor };
    case 'TopicUnscheduled':
      return { ...state, status: 'approved', scheduledFor: null };
    case 'TopicReprioritized':
      return { ...state, priority: event.data.priority };
    case 'TopicWritten':
      return { ...state, status: 'written', articleId: event.data.articleId };
    default:
      return state;
  }
}
