import { api } from '../api/v1Client.ts';
import { useImageData } from '../ui/useImageData.ts';

/**
 * The cover PNG (GET /articles/:id/cover) as a data: URL (the page's CSP allows images only from
 * this origin or data:). A cover that cannot be fetched leaves the article shown without it.
 */
export function useCover(articleId: string, hasCover: boolean): string | null {
  const fetchCover = hasCover
    ? () =>
        api.GET('/articles/{id}/cover', { params: { path: { id: articleId } }, parseAs: 'blob' })
    : null;
  return useImageData(fetchCover, `${articleId}:${hasCover}`).src;
}
