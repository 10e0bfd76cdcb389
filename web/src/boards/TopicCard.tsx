import { useState, type DragEvent } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import type { components } from '../api/v1.ts';
import { pathTo } from '../navigation.ts';
import { Link } from '../ui/Link.tsx';
import { ScheduleForm } from './ScheduleForm.tsx';
import { Time } from '../ui/Time.tsx';

export type Topic = components['schemas']['Topic'];
export type TopicStatus = Topic['status'];

/** What a PATCH may do from each status (docs/api.md "Topic states"), and where writing is allowed. */
const canBecome: Record<TopicStatus, readonly TopicStatus[]> = {
  suggested: ['approved', 'rejected', 'scheduled'],
  approved: ['rejected', 'scheduled'],
  scheduled: ['approved', 'rejected', 'scheduled'],
  rejected: ['approved'],
  written: [],
};
const writable: readonly TopicStatus[] = ['approved', 'scheduled'];

export type TopicActions = {
  setStatus(topic: Topic, status: 'approved' | 'rejected'): void;
  schedule(topic: Topic, utc: string): Promise<RequestFailed | null>;
  write(topic: Topic): void;
  move(topic: Topic, by: -1 | 1): void;
  dragStart(topic: Topic): void;
  dropOn(topic: Topic): void;
};

/**
 * A topic on the board. Its title, keyword, brief and rationale come from people and models: React puts
 * them in as text, never as markup. `actions` is absent for a viewer, who sees no controls.
 */
export function TopicCard({
  topic,
  projectId,
  fresh,
  first,
  last,
  error,
  actions,
}: {
  topic: Topic;
  projectId: string;
  fresh: boolean;
  first: boolean;
  last: boolean;
  error: RequestFailed | null;
  actions?: TopicActions;
}) {
  const [scheduling, setScheduling] = useState(false);
  const allowed = canBecome[topic.status];
  const drag = actions && {
    draggable: true,
    onDragStart: (event: DragEvent<HTMLElement>) => {
      event.dataTransfer.setData('text/plain', topic.id);
      event.dataTransfer.effectAllowed = 'move';
      actions.dragStart(topic);
    },
    onDragOver: (event: DragEvent<HTMLElement>) => event.preventDefault(),
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      actions.dropOn(topic);
    },
  };
  return (
    <article className="card" aria-label={topic.title} {...drag}>
      <h3>{topic.title}</h3>
      {fresh && <p className="card-tag">New suggestion</p>}
      {topic.keyword && <p className="card-meta">Keyword: {topic.keyword}</p>}
      {topic.rationale && (
        <p className="card-rationale">
          <span className="hidden">Why: </span>
          {topic.rationale}
        </p>
      )}
      {topic.brief && (
        <p className="card-brief">
          <span className="hidden">Brief: </span>
          {topic.brief}
        </p>
      )}
      {topic.overlap && (
        <p className="card-meta">
          Overlaps “{topic.overlap.title || topic.overlap.url}”: {topic.overlap.advice}
        </p>
      )}
      <p className="card-meta">
        Priority {topic.priority}
        {topic.scheduledFor && (
          <>
            {' '}
            · written on <Time at={topic.scheduledFor} />
          </>
        )}
      </p>
      {topic.articleId && (
        <p>
          <Link
            to={pathTo('/projects/:projectId/articles/:articleId', {
              projectId,
              articleId: topic.articleId,
            })}
          >
            Open its article
          </Link>
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {actions && (
        <div className="card-actions">
          {allowed.includes('approved') && (
            <button type="button" onClick={() => actions.setStatus(topic, 'approved')}>
              Approve
            </button>
          )}
          {writable.includes(topic.status) && (
            <button type="button" onClick={() => actions.write(topic)}>
              Write this
            </button>
          )}
          {allowed.includes('scheduled') && !scheduling && (
            <button type="button" onClick={() => setScheduling(true)}>
              {topic.scheduledFor ? 'Reschedule' : 'Schedule'}
            </button>
          )}
          {allowed.includes('rejected') && (
            <button type="button" onClick={() => actions.setStatus(topic, 'rejected')}>
              Reject
            </button>
          )}
          {topic.status !== 'written' && (
            <span className="card-move">
              <button
                type="button"
                disabled={first}
                onClick={() => actions.move(topic, -1)}
                aria-label={`Move ${topic.title} up`}
              >
                ↑
              </button>
              <button
                type="button"
                disabled={last}
                onClick={() => actions.move(topic, 1)}
                aria-label={`Move ${topic.title} down`}
              >
                ↓
              </button>
            </span>
          )}
        </div>
      )}
      {actions && scheduling && (
        <ScheduleForm
          title={topic.title}
          current={topic.scheduledFor}
          onSchedule={async (utc) => {
            const failed = await actions.schedule(topic, utc);
            if (!failed) setScheduling(false);
            return failed;
          }}
          onCancel={() => setScheduling(false)}
        />
      )}
    </article>
  );
}
