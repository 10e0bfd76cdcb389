import { RequestFailed } from '../api/appClient.ts';
import { api } from '../api/v1Client.ts';

/**
 * Saves the article's history as the server's JSON Lines file, under the name its
 * Content-Disposition gives. The request carries the session's bearer token, so it is fetched
 * here and handed to the browser as a file rather than followed as a link.
 */
export async function downloadHistory(articleId: string): Promise<void> {
  const { data, response } = await api.GET('/articles/{id}/history.jsonl', {
    params: { path: { id: articleId } },
    parseAs: 'blob',
  });
  if (!response.ok || !data) {
    throw new RequestFailed({
      status: response.status,
      code: 'download_failed',
      message: `The history could not be downloaded (the server answered ${response.status}).`,
    });
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `${articleId}-history.jsonl`;
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
