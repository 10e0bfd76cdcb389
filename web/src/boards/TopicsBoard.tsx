import { useRef, useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { pathTo } from '../navigation.ts';
import type { PageProps } from '../pageTypes.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { asRequestFailed, useResource } from '../ui/useResource.ts';
import { AddTopicForm } from './AddTopicForm.tsx';
import { BoardColumn } from './BoardColumn.tsx';
import { byRank, placeAt } from './ranking.ts';
import { ResearchRun } from './ResearchRun.tsx';
import { TopicCard, type Topic, type TopicActions, type TopicStatus } from './TopicCard.tsx';
import { useBoardRefresh } from './useBoardRefresh.ts';
import { usePagedColumns } from './usePagedColumns.ts';

const COLUMNS: readonly { status: TopicStatus; title: string }[] = [
  { status: 'suggested', title: 'Suggested' },
  { status: 'approved', title: 'Approved' },
  { status: 'scheduled', title: 'Scheduled' },
  { status: 'rejected', title: 'Rejected' },
  { status: 'written', title: 'Written' },
];
const STATUSES = COLUMNS.map((column) => column.status);
/** Topics per column per page; a column is ordered by priority within what it shows. */
const PAGE_SIZE = 50;

/** The Topics board: a column per topic status; approve, reject, schedule, reprioritize, write, and suggest topics. */
export function TopicsBoard({ me, params }: PageProps) {
  const { projectId } = params;
  const project = useResource(
    () =>
      unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } })).then(
        (body) => body.project,
      ),
    projectId,
  );
  const board = usePagedColumns(
    STATUSES,
    (status, limit, cursor) =>
      unwrap(
        api.GET('/projects/{id}/topics', {
          params: { path: { id: projectId }, query: { status, limit, cursor } },
        }),
      ).then((body) => ({ items: body.topics, nextCursor: body.nextCursor })),
    PAGE_SIZE,
    projectId,
  );
  const [cardError, setCardError] = useState<{ topicId: string; error: RequestFailed } | null>(
    null,
  );
  const [written, setWritten] = useState<{ title: string; articleId: string } | null>(null);
  const dragged = useRef<Topic | null>(null);
  const ranked = (status: TopicStatus) => [...(board.columns[status]?.items ?? [])].sort(byRank);
  // A topic's change, or the project's (a research run starting or ending), from anyone, this tab's
  // actions too: the cards and the columns' totals (the project's topic counts) are read once per change.
  const refresh = useBoardRefresh(
    () => Promise.all([board.reload(), project.reload()]),
    (change) =>
      change.projectId === projectId && (change.kind === 'topic' || change.kind === 'project'),
  );

  /** Runs an action; its error, if any, shows on the card and is returned. */
  async function attempt(
    topic: Topic,
    action: () => Promise<unknown>,
  ): Promise<RequestFailed | null> {
    setCardError(null);
    const mark = refresh.begin();
    try {
      await action();
      refresh.settled(mark, true);
      return null;
    } catch (failure) {
      const error = asRequestFailed(failure);
      setCardError({ topicId: topic.id, error });
      refresh.settled(mark, false);
      return error;
    }
  }
  const patch = (
    topic: Topic,
    body: {
      status?: 'approved' | 'rejected' | 'scheduled';
      scheduledFor?: string;
      priority?: number;
    },
  ) => unwrap(api.PATCH('/topics/{id}', { params: { path: { id: topic.id } }, body }));
  // One move at a time: a second press before the board has the first one's order would move from a stale place.
  const moving = useRef(false);
  const moveTo = async (topic: Topic, index: number) => {
    if (moving.current) return;
    moving.current = true;
    try {
      await attempt(topic, async () => {
        for (const change of placeAt(ranked(topic.status), topic.id, index)) {
          await unwrap(
            api.PATCH('/topics/{id}', {
              params: { path: { id: change.id } },
              body: { priority: change.priority },
            }),
          );
        }
      });
    } finally {
      moving.current = false;
    }
  };

  const actions: TopicActions | undefined =
    me.member.role === 'viewer'
      ? undefined
      : {
          setStatus: (topic, status) => void attempt(topic, () => patch(topic, { status })),
          schedule: async (topic, utc) => {
            const mark = refresh.begin();
            try {
              await patch(topic, { status: 'scheduled', scheduledFor: utc });
              refresh.settled(mark, true);
              return null;
            } catch (failure) {
              refresh.settled(mark, false);
              return asRequestFailed(failure); // shown on the form's field
            }
          },
          write: (topic) =>
            void attempt(topic, async () => {
              const { article } = await unwrap(
                api.POST('/topics/{id}/write', { params: { path: { id: topic.id } } }),
              );
              setWritten({ title: topic.title, articleId: article.id });
            }),
          move: (topic, by) => {
            const order = ranked(topic.status);
            void moveTo(topic, order.findIndex((card) => card.id === topic.id) + by);
          },
          dragStart: (topic) => {
            dragged.current = topic;
          },
          dropOn: (target) => {
            const topic = dragged.current;
            dragged.current = null;
            if (!topic || topic.id === target.id || topic.status !== target.status) return;
            const order = ranked(target.status).filter((card) => card.id !== topic.id);
            void moveTo(
              topic,
              order.findIndex((card) => card.id === target.id),
            );
          },
        };
  const dropAtEnd = (status: TopicStatus) => () => {
    const topic = dragged.current;
    dragged.current = null;
    if (topic && topic.status === status) void moveTo(topic, ranked(status).length);
  };

  const research = project.data?.research ?? null;
  const fresh = new Set(research?.status === 'done' ? research.topicIds : []);
  return (
    <main className="wide">
      <h1>Topics{project.data ? `: ${project.data.name}` : ''}</h1>
      <ErrorNote error={project.error ?? board.error} />
      <ResearchRun
        projectId={projectId}
        research={research}
        canStart={Boolean(actions)}
        refresh={refresh}
      />
      {written && (
        <p role="status" className="notice">
          Writing “{written.title}”:{' '}
          <Link
            to={pathTo('/projects/:projectId/articles/:articleId', {
              projectId,
              articleId: written.articleId,
            })}
          >
            open the article
          </Link>{' '}
          or follow it on the{' '}
          <Link to={pathTo('/projects/:projectId/articles', { projectId })}>Articles board</Link>.
        </p>
      )}
      {actions && <AddTopicForm projectId={projectId} refresh={refresh} />}
      {actions && (
        <p className="board-hint">
          Drag a card within its column, or use its ↑ ↓ buttons, to change the order topics are
          written in.
        </p>
      )}
      <div className="board" aria-busy={!board.loaded}>
        {COLUMNS.map(({ status, title }) => {
          const column = board.columns[status];
          const order = ranked(status);
          return (
            <BoardColumn
              key={status}
              id={`topics-${status}`}
              title={title}
              total={project.data?.topicCounts[status]}
              onMore={() => void board.more(status)}
              column={column && { ...column, items: order }}
              onDropAtEnd={actions && status !== 'written' ? dropAtEnd(status) : undefined}
            >
              {(topic, index) => (
                <TopicCard
                  topic={topic}
                  projectId={projectId}
                  fresh={fresh.has(topic.id) && topic.status === 'suggested'}
                  first={index === 0}
                  last={index === order.length - 1}
                  error={cardError?.topicId === topic.id ? cardError.error : null}
                  actions={actions}
                />
              )}
            </BoardColumn>
          );
        })}
      </div>
    </main>
  );
}
