import { describe, expect, test } from 'vitest';
import {
  TOPIC_STATUSES,
  topicTransitions,
  writableFrom,
  type TopicEvent,
  type TopicStatus,
} from '../../../src/domain/topics/topic.ts';
import { topicStream, type TopicCommand } from '../../../src/domain/topics/decide.ts';
import { given } from '../../support/decider.ts';

const at = '2026-11-25T10:00:00.000Z';
const topicId = 'tpc_01jg0000000000000000000001';
const projectId = 'prj_01jg0000000000000000000001';
const articleId = 'art_01jg0000000000000000000001';
const later = '2026-12-01T09:00:00.000Z';
const laterStill = '2026-12-08T09:00:00.000Z';

const created = (status: 'approved' | 'suggested' | 'scheduled' = 'suggested'): TopicEvent => ({
  type: 'TopicCreated',
  data: {
    topicId,
    projectId,
    title: 'Cold brew at home',
    keyword: 'cold brew',
    brief: null,
    status,
    scheduledFor: status === 'scheduled' ? later : null,
    priority: 0,
    source: 'research',
    runId: 'run_1',
    rationale: 'people ask',
    at,
  },
});
const approved: TopicEvent = { type: 'TopicApproved', data: { topicId, at } };
const rejected: TopicEvent = { type: 'TopicRejected', data: { topicId, at } };
const scheduled = (scheduledFor: string): TopicEvent => ({
  type: 'TopicScheduled',
  data: { topicId, scheduledFor, at },
});
const written: TopicEvent = {
  type: 'TopicWritten',
  data: {
    topicId,
    articleId,
    projectId,
    title: 'Cold brew at home',
    keyword: 'cold brew',
    brief: null,
    trigger: 'api',
    at,
  },
};

/** The road to each status. */
const topicAt: Record<TopicStatus, TopicEvent[]> = {
  suggested: [created('suggested')],
  approved: [created('suggested'), approved],
  scheduled: [created('suggested'), scheduled(later)],
  rejected: [created('suggested'), rejected],
  written: [created('approved'), written],
};

/** The statuses a PATCH may ask for (the table's targets), each with the command and the events it yields. */
type Target = (typeof topicTransitions)[TopicStatus][number];
const patchTo: Record<Target, { when: TopicCommand; yields: TopicEvent[] }> = {
  approved: { when: { type: 'UpdateTopic', status: 'approved', at }, yields: [approved] },
  rejected: { when: { type: 'UpdateTopic', status: 'rejected', at }, yields: [rejected] },
  scheduled: {
    when: { type: 'UpdateTopic', status: 'scheduled', scheduledFor: laterStill, at },
    yields: [scheduled(laterStill)],
  },
};
const targets = [...new Set(TOPIC_STATUSES.flatMap((status) => topicTransitions[status]))];

describe('every cell of the topic table (topicTransitions)', () => {
  test('has a road to its status and a PATCH for its target here', () => {
    expect(Object.keys(topicAt).sort()).toEqual([...TOPIC_STATUSES].sort());
    expect(Object.keys(patchTo).sort()).toEqual([...targets].sort());
  });

  const cells = TOPIC_STATUSES.flatMap((from) =>
    targets.map((to): [TopicStatus, Target] => [from, to]),
  );
  test.each(cells)('%s → %s', (from, to) => {
    const topic = given(topicStream, ...topicAt[from]);
    expect(topic.state.status).toBe(from);
    const { when, yields } = patchTo[to];
    if ((topicTransitions[from] as readonly TopicStatus[]).includes(to)) {
      expect(topic.when(when).thenYields(...yields).status).toBe(to);
    } else if (from === to) {
      topic.when(when).thenNothing(); // asked for the status it has: an idempotent repeat
    } else {
      expect(topic.when(when).thenFails('invalid_state').message).toContain(
        `A ${from} topic cannot become ${to}`,
      );
    }
  });
});

describe('every status of the write table (writableFrom)', () => {
  test.each(TOPIC_STATUSES)('writing a %s topic', (status) => {
    const topic = given(topicStream, ...topicAt[status]).when({
      type: 'MarkTopicWritten',
      articleId,
      trigger: 'api',
      at,
    });
    if (writableFrom.includes(status)) expect(topic.thenYields(written).status).toBe('written');
    else if (status === 'written')
      expect(topic.thenFails('invalid_state').message).toContain(
        `already written as article ${articleId}`,
      );
    else expect(topic.thenFails('invalid_state').message).toContain('approve it first');
  });
});

describe('the other topic commands', () => {
  test('creating a topic; a repeat of the same creation decides nothing', () => {
    const { data } = created('suggested') as Extract<TopicEvent, { type: 'TopicCreated' }>;
    expect(
      given(topicStream).when({ type: 'CreateTopic', topic: data }).thenYields(created('suggested'))
        .status,
    ).toBe('suggested');
    given(topicStream, created('suggested'))
      .when({ type: 'CreateTopic', topic: data })
      .thenNothing();
  });

  test('a topic that does not exist cannot be changed or written: not_found', () => {
    given(topicStream).when({ type: 'UpdateTopic', title: 'Iced tea', at }).thenFails('not_found');
    given(topicStream)
      .when({ type: 'MarkTopicWritten', articleId, trigger: 'api', at })
      .thenFails('not_found');
  });

  test('an edit records only the fields that change, then the priority, then the status', () => {
    given(topicStream, ...topicAt.suggested)
      .when({
        type: 'UpdateTopic',
        title: 'Iced tea',
        keyword: 'cold brew',
        brief: null,
        priority: 3,
        status: 'approved',
        at,
      })
      .thenYields(
        { type: 'TopicEdited', data: { topicId, title: 'Iced tea', at } },
        { type: 'TopicReprioritized', data: { topicId, priority: 3, at } },
        approved,
      );
    given(topicStream, ...topicAt.suggested)
      .when({ type: 'UpdateTopic', title: 'Cold brew at home', priority: 0, at })
      .thenNothing();
  });

  test('scheduling needs a time; the same time again decides nothing; a time alone schedules', () => {
    const noTime = given(topicStream, ...topicAt.approved)
      .when({ type: 'UpdateTopic', status: 'scheduled', at })
      .thenFails('validation_failed');
    expect(noTime.details).toEqual([
      { path: 'body.scheduledFor', message: 'required with status "scheduled"' },
    ]);
    given(topicStream, ...topicAt.scheduled)
      .when({ type: 'UpdateTopic', status: 'scheduled', scheduledFor: later, at })
      .thenNothing();
    given(topicStream, ...topicAt.approved)
      .when({ type: 'UpdateTopic', scheduledFor: later, at })
      .thenYields(scheduled(later));
    given(topicStream, ...topicAt.rejected)
      .when({ type: 'UpdateTopic', scheduledFor: later, at })
      .thenFails('invalid_state');
  });

  test('scheduling or moving a topic to a time before now is refused on the field; the time it already has is not re-checked', () => {
    const earlier = '2026-11-25T09:59:00.000Z';
    const past = given(topicStream, ...topicAt.approved)
      .when({ type: 'UpdateTopic', status: 'scheduled', scheduledFor: earlier, at })
      .thenFails('validation_failed');
    expect(past.details).toEqual([
      { path: 'body.scheduledFor', message: `must be later than now (${at})` },
    ]);
    given(topicStream, ...topicAt.scheduled)
      .when({ type: 'UpdateTopic', scheduledFor: earlier, at })
      .thenFails('validation_failed');
    given(topicStream, ...topicAt.suggested)
      .when({ type: 'UpdateTopic', scheduledFor: earlier, priority: 9, at })
      .thenFails('validation_failed');
    const overdue = [created('suggested'), scheduled(earlier)];
    given(topicStream, ...overdue)
      .when({ type: 'UpdateTopic', status: 'scheduled', scheduledFor: earlier, priority: 9, at })
      .thenYields({ type: 'TopicReprioritized', data: { topicId, priority: 9, at } });
  });

  test('clearing the time of a scheduled topic leaves it approved; approving clears it too', () => {
    const unscheduled = given(topicStream, ...topicAt.scheduled)
      .when({ type: 'UpdateTopic', scheduledFor: null, at })
      .thenYields({ type: 'TopicUnscheduled', data: { topicId, at } });
    expect(unscheduled).toMatchObject({ status: 'approved', scheduledFor: null });
    expect(
      given(topicStream, ...topicAt.scheduled)
        .when(patchTo.approved.when)
        .thenYields(approved),
    ).toMatchObject({ scheduledFor: null });
    given(topicStream, ...topicAt.approved)
      .when({ type: 'UpdateTopic', scheduledFor: null, at })
      .thenNothing();
  });
});
