import { useEffect, useState } from 'react';
import { api } from '../api/v1Client.ts';

/**
 * The cover PNG (GET /articles/:id/cover) as a data: URL: the request needs the session's bearer
 * token, so an <img src> cannot fetch it, and the page's CSP allows images only from this origin
 * or data:.
 */
export function useCover(articleId: string, hasCover: boolean): string | null {
  const [cover, setCover] = useState<string | null>(null);
  useEffect(() => {
    setCover(null);
    if (!hasCover) return;
    let live = true;
    void api.GET('/articles/{id}/cover', { params: { path: { id: articleId } }, parseAs: 'blob' }).then(({ data, response }) => {
      if (!live || !response.ok || !data) return;
      const reader = new FileReader();
      reader.onload = () => { if (live && typeof reader.result === 'string') setCover(reader.result); };
      reader.readAsDataURL(data);
    }, () => undefined); // unreachable: the article shows without its cover
    return () => { live = false; };
  }, [articleId, hasCover]);
  return cover;
}
