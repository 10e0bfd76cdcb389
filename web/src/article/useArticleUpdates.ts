import { useEffect } from 'react';
import type { Article } from './articleApi.ts';

const WORKING: readonly Article['status'][] = ['queued', 'researching', 'writing', 'publishing'];

/**
 * Keeps the page current while something is in progress (a pending revision, a pipeline step):
 * it reads the article again every few seconds until nothing is.
 */
export function useArticleUpdates(articleId: string, article: Article | undefined, reload: () => void): void {
  const busy = Boolean(article && (article.pendingRevisions > 0 || WORKING.includes(article.status)));
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [articleId, busy]); // eslint-disable-line react-hooks/exhaustive-deps
}
