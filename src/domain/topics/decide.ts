import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  evolveTopic,
  initialTopic,
  TOPIC_CATEGORY,
  topicTransitions,
  writableFrom,
  type ActiveTopic,
  type Topic,
  type TopicEvent,
  type TopicStatus,
} from './topic.ts';

type NewTopic = Extract<TopicEvent, { type: 'TopicCreated' }>['data'];

export type TopicCommand =
  | { type: 'CreateTopic'; topic: NewTopic }
  | {
      type: 'UpdateTopic';
      status?: 'approved' | 'rejected' | 'scheduled';
      scheduledFor?: string | null;
      priority?: number;
      title?: string;
      keyword?: string | null;
      brief?: string | null;
      at: string;
    }
  | {
      type: 'MarkTopicWritten';
      articleId: string;
      trigger: 'api' | 'schedule' | 'cadence';
      at: string;
    };

export function decideTopic(command: TopicCommand, state: Topic): TopicEvent[] {
  switch (command.type) {
    case 'CreateTopic':
      return state.status === 'none' ? [{ type: 'TopicCreated', data: command.topic }] : [];
    case 'UpdateTopic':
      return update(command, requireTopic(state));
    case 'MarkTopicWritten': {
      const topic = requireTopic(state);
      if (topic.status === 'written') {
        throw new AppError(
          'invalid_state',
          `This topic was already written as article ${topic.articleId}.`,
        );
      }
      if (!writableFrom.includes(topic.status)) {
        throw new AppError(
          'invalid_state',
          `A ${topic.status} topic cannot be written; approve it first (PATCH status "approved").`,
        );
      }
      const { id: topicId, projectId, title, keyword, brief } = topic;
      return [
        {
          type: 'TopicWritten',
          data: {
            topicId,
            articleId: command.articleId,
            projectId,
            title,
            keyword,
            brief,
            trigger: command.trigger,
            at: command.at,
          },
        },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function update(
  command: Extract<TopicCommand, { type: 'UpdateTopic' }>,
  topic: ActiveTopic,
): TopicEvent[] {
  const { at } = command;
  const events: TopicEvent[] = [];
  const target: TopicStatus | undefined =
    command.status ?? (command.scheduledFor ? 'scheduled' : undefined);
  if (target === 'scheduled' && !command.scheduledFor) {
    throw new AppError('validation_failed', 'Scheduling needs scheduledFor (an ISO 8601 time).', {
      details: [{ path: 'body.scheduledFor', message: 'required with status "scheduled"' }],
    });
  }
  if (
    target === 'scheduled' &&
    command.scheduledFor &&
    command.scheduledFor !== topic.scheduledFor &&
    command.scheduledFor < command.at
  ) {
    // Creating a topic with a past time stays "due at the next tick" (docs/api.md); moving one into
    // the past is a mistake (a stale form, a picker's wrong day), so it is refused on the field.
    throw new AppError(
      'validation_failed',
      `scheduledFor is in the past (it is now ${command.at}): pick a later time, or write the topic now with POST /topics/${topic.id}/write.`,
      {
        details: [{ path: 'body.scheduledFor', message: `must be later than now (${command.at})` }],
      },
    );
  }
  if ((target && target !== topic.status) || target === 'scheduled') {
    const allowed: readonly TopicStatus[] = topicTransitions[topic.status];
    if (!allowed.includes(target!)) {
      throw new AppError(
        'invalid_state',
        `A ${topic.status} topic cannot become ${target}; allowed: ${allowed.join(', ') || 'none'}.`,
      );
    }
  }
  if (command.scheduledFor === null && topic.status === 'scheduled' && !target)
    events.push({ type: 'TopicUnscheduled', data: { topicId: topic.id, at } });
  const edits = { title: command.title, keyword: command.keyword, brief: command.brief };
  const changed = Object.fromEntries(
    Object.entries(edits).filter(
      ([key, value]) => value !== undefined && value !== topic[key as keyof typeof edits],
    ),
  );
  if (Object.keys(changed).length)
    events.push({ type: 'TopicEdited', data: { topicId: topic.id, ...changed, at } });
  if (command.priority !== undefined && command.priority !== topic.priority)
    events.push({
      type: 'TopicReprioritized',
      data: { topicId: topic.id, priority: command.priority, at },
    });
  if (target === 'approved' && topic.status !== 'approved')
    events.push({ type: 'TopicApproved', data: { topicId: topic.id, at } });
  if (target === 'rejected' && topic.status !== 'rejected')
    events.push({ type: 'TopicRejected', data: { topicId: topic.id, at } });
  if (
    target === 'scheduled' &&
    command.scheduledFor &&
    command.scheduledFor !== topic.scheduledFor
  ) {
    events.push({
      type: 'TopicScheduled',
      data: { topicId: topic.id, scheduledFor: command.scheduledFor, at },
    });
  }
  return events;
}

export function requireTopic(state: Topic): ActiveTopic {
  if (state.status === 'none') throw new AppError('not_found', 'No such topic.');
  return state;
}

export const topicStream: StreamType<Topic, TopicEvent, TopicCommand> = {
  category: TOPIC_CATEGORY,
  initial: initialTopic,
  evolve: evolveTopic,
  decide: decideTopic,
};
