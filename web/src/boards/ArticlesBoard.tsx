import { useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import type { PageProps } from '../pageTypes.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { asRequestFailed, useResource } from '../ui/useResource.ts';
import { ArticleCard, type ArticleSummary } from './ArticleCard.tsx';
import { BoardColumn } from './BoardColumn.tsx';
import { useBoardRefresh } from './useBoardRefresh.ts';
import { usePagedColumns } from './usePagedColumns.ts';
import { ARTICLE_STATES } from '../articleStates.ts';

type ArticleStatus = ArticleSummary['status'];
/** The same words as the project's overview (projectFigures.tsx): one word a state everywhere. */
const COLUMNS: readonly { status: ArticleStatus; title: string }[] = ARTICLE_STATES.map(
  ({ status, label }) => ({ status, title: label }),
);
const STATUSES = COLUMNS.map((column) => column.status);
/** The newest articles per column; "Show more" pages on through the API's cursor. */
const PAGE_SIZE = 20;

/** The Article pipeline board: a column per article state, newest first; a failed card can be retried. */
export function ArticlesBoard({ me, params }: PageProps) {
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
        api.GET('/projects/{id}/articles', {
          params: { path: { id: projectId }, query: { status, limit, cursor } },
        }),
      ).then((body) => ({ items: body.articles, nextCursor: body.nextCursor })),
    PAGE_SIZE,
    projectId,
  );
  const [cardError, setCardError] = useState<{ articleId: string; error: RequestFailed } | null>(
    null,
  );
  // The cards and the columns' totals (the project's article counts) are read together, once per change.
  const refresh = useBoardRefresh(
    () => Promise.all([board.reload(), project.reload()]),
    (change) => change.projectId === projectId && change.kind === 'article',
  );

  const retry =
    me.member.role === 'viewer'
      ? undefined
      : async (article: ArticleSummary) => {
          setCardError(null);
          const mark = refresh.begin();
          try {
            await unwrap(
              api.POST('/articles/{id}/retry', { params: { path: { id: article.id } } }),
            );
            refresh.settled(mark, true);
          } catch (failure) {
            setCardError({ articleId: article.id, error: asRequestFailed(failure) });
            refresh.settled(mark, false);
          }
        };

  return (
    <main className="wide">
      <h1>Articles{project.data ? `: ${project.data.name}` : ''}</h1>
      <ErrorNote error={project.error ?? board.error} />
      {/* Nine columns: one row that scrolls sideways inside its own box from tablet width up; */}
      {/* it takes the keyboard's focus so it can be scrolled without a mouse. */}
      <div
        className="board board-row"
        aria-busy={!board.loaded}
        role="region"
        aria-label="Articles by state"
        tabIndex={0}
      >
        {COLUMNS.map(({ status, title }) => (
          <BoardColumn
            key={status}
            id={`articles-${status}`}
            title={title}
            column={board.columns[status]}
            total={project.data?.articleCounts[status]}
            onMore={() => void board.more(status)}
          >
            {(article) => (
              <ArticleCard
                article={article}
                projectId={projectId}
                error={cardError?.articleId === article.id ? cardError.error : null}
                onRetry={retry && ((chosen) => void retry(chosen))}
              />
            )}
          </BoardColumn>
        ))}
      </div>
    </main>
  );
}
