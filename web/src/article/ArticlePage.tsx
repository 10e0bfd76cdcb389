import { articleStateWord } from '../articleStates.ts';
import { lazy, Suspense, useLayoutEffect, useState } from 'react';
import type { PageProps } from '../pageTypes.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { pathTo } from '../navigation.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { useResource } from '../ui/useResource.ts';
import { HistoryTable } from '../audit/HistoryTable.tsx';
import { eventLabel, loadHistory, type HistoryEntry } from '../audit/history.ts';
import { ArticleActions } from './ArticleActions.tsx';
import { SiteBuildPanel } from './SiteBuildPanel.tsx';
import { loadArticle } from './articleApi.ts';
import { takeOpeningArticle } from './openingArticle.ts';
import {
  arrivedArticle,
  dropPrerendered,
  forgetArrivedArticle,
  prerenderedAnchor,
  prerenderedArticleId,
} from './prerendered.ts';
import { ArticleView } from './ArticleView.tsx';
import { DecayPanel } from './DecayEvidence.tsx';
import { ReviseBox } from './ReviseBox.tsx';
import { useCover } from './useCover.ts';
import { useArticleUpdates } from './useArticleUpdates.ts';
import { Time } from '../ui/Time.tsx';

// The diff and the chart bring their libraries (diff, uPlot): chunks of their own, so the body's is small.
const VersionDiff = lazy(() =>
  import('./VersionDiff.tsx').then((module) => ({ default: module.VersionDiff })),
);
const SearchChart = lazy(() =>
  import('./SearchChart.tsx').then((module) => ({ default: module.SearchChart })),
);

/**
 * An article: the text rendered safely with its content checks, frontmatter, cover, sources and
 * links; its actions, a revise box, the versions and their diff, its history (with the article as
 * it was at any step) and its search figures. Loaded lazily with react-markdown; the diff and the
 * chart load after the body (docs/workspace.md, "How the article page loads").
 */
export default function ArticlePage({ me, params }: PageProps) {
  const { articleId, projectId } = params;
  const canAct = me.member.role !== 'viewer';
  const article = useResource(
    () => takeOpeningArticle(articleId) ?? loadArticle(articleId),
    articleId,
  );
  const project = useResource(
    async () =>
      (await unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } }))).project,
    projectId,
  );
  const history = useResource(() => loadHistory(articleId), articleId);
  const [shownAt, setShownAt] = useState<HistoryEntry | null>(null);
  const past = useResource(
    async () => (shownAt ? loadArticle(articleId, shownAt.revision) : null),
    `${articleId}:${shownAt?.revision ?? 'now'}`,
  );
  // Opened prerendered, the first render already has the article read at start, so its body replaces the server's at once.
  const current = article.data ?? arrivedArticle(articleId);
  const anchor = prerenderedAnchor(); // where the reader is in the server's text, before this render reaches the page
  useLayoutEffect(() => {
    if (current) dropPrerendered(anchor, document.querySelector('#root .article-body'));
    else if (article.error) dropPrerendered();
    if (article.data) forgetArrivedArticle();
  }, [current, article.data, article.error]); // eslint-disable-line react-hooks/exhaustive-deps
  const cover = useCover(articleId, Boolean(current?.cover));
  const reload = () => {
    void article.reload();
    void history.reload();
  };
  useArticleUpdates(articleId, reload);

  if (article.error)
    return (
      <main>
        <h1>Article</h1>
        <ErrorNote error={article.error} />
      </main>
    );
  // A read at start that failed is asked again: the server's article stays on screen meanwhile, not "Loading…" over it.
  if (!current)
    return prerenderedArticleId() === articleId ? null : (
      <main aria-busy="true">
        <p>Loading the article…</p>
      </main>
    );
  if (current.projectId !== projectId)
    return (
      <main>
        <h1>Not found</h1>
        <p>This project has no such article.</p>
      </main>
    );
  const siteHost = project.data
    ? new URL(project.data.websiteUrl).hostname.replace(/^www\./, '')
    : null;
  const shown = shownAt && past.data ? past.data : current;

  return (
    <main className="wide">
      <h1>{current.title}</h1>
      <p>
        Status{' '}
        <strong className={`status status-${current.status}`}>
          {articleStateWord(current.status)}
        </strong>
        {current.failure && (
          <span className="error">
            {' '}
            · failed while {current.failure.step}: {current.failure.reason}
          </span>
        )}
        {' · '}
        <Link to={pathTo('/projects/:projectId/articles/:articleId/history', params)}>
          Full history and download
        </Link>
      </p>
      <ArticleActions
        article={current}
        canAct={canAct}
        onDone={reload}
        repositoryConnected={project.data ? Boolean(project.data.integrations.github) : undefined}
      />
      <SiteBuildPanel
        build={current.build}
        status={current.status}
        correction={current.buildCorrection}
        articleId={current.id}
        canAct={canAct}
        onDone={reload}
      />
      {shownAt && (
        <div className="as-it-was" role="status">
          <p>
            Showing the article as it was at step {shownAt.revision} ({eventLabel(shownAt.type)},{' '}
            <Time at={shownAt.at} absolute />
            ).{' '}
            <button type="button" onClick={() => setShownAt(null)}>
              Back to the current article
            </button>
          </p>
          <ErrorNote error={past.error} />
        </div>
      )}
      <ArticleView article={shown} siteHost={siteHost} cover={shown === current ? cover : null} />
      <ReviseBox article={current} canAct={canAct} onQueued={reload} />
      <Suspense fallback={<p aria-busy="true">Loading the revision history…</p>}>
        <VersionDiff articleId={articleId} latest={current.version} />
      </Suspense>
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <ErrorNote error={history.error} />
        {history.data && (
          <HistoryTable
            entries={history.data}
            caption="Every step, oldest first"
            onShowAt={setShownAt}
            shownAt={shownAt?.revision ?? null}
          />
        )}
      </section>
      {'searchMetrics' in current && (
        <Suspense fallback={<p aria-busy="true">Loading the search figures…</p>}>
          <SearchChart articleId={articleId} />
        </Suspense>
      )}
      {'decay' in current && <DecayPanel finding={current.decay ?? null} />}
    </main>
  );
}
