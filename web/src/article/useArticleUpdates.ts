import { useLiveReload } from '../live/useLiveChanges.ts';

/**
 * Keeps the page current without polling: any change on the article's stream (a pipeline step, a
 * revision asked for or landed, a status change, new search figures) reads it and its history again.
 */
export function useArticleUpdates(articleId: string, reload: () => void): void {
  useLiveReload(reload, (change) => change.kind === 'article' && change.articleId === articleId);
}
