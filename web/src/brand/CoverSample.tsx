import { api } from '../api/v1Client.ts';
import { useImageData } from '../ui/useImageData.ts';

/**
 * The server's sample cover for this brand. Fetched with the session's bearer token (an <img src>
 * cannot send one) and shown as a data: URL; `version` changes when the palette or style does.
 */
export function CoverSample({ projectId, version }: { projectId: string; version: string }) {
  const { src, failed } = useImageData(
    () =>
      api.GET('/projects/{id}/brand/cover-sample', {
        params: { path: { id: projectId } },
        parseAs: 'blob',
      }),
    `${projectId}:${version}`,
  );
  if (failed)
    return (
      <p role="alert" className="error">
        The sample cover could not be drawn. Reload the page to try again.
      </p>
    );
  if (!src) return <p aria-busy="true">Drawing a sample cover…</p>;
  return (
    <img
      className="cover-sample"
      src={src}
      width={600}
      height={315}
      alt="A sample cover in this brand's palette and cover style, with a sample article title"
    />
  );
}
