import { useEffect, useState } from 'react';
import { api } from '../api/v1Client.ts';

/**
 * The server's sample cover for this brand. Fetched with the session's bearer token (an <img src>
 * cannot send one) and shown from an object URL; `version` changes when the palette or style does.
 */
export function CoverSample({ projectId, version }: { projectId: string; version: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setFailed(false);
    api.GET('/projects/{id}/brand/cover-sample', { params: { path: { id: projectId } }, parseAs: 'blob' })
      .then(({ data, response }) => {
        if (!live) return;
        if (!response.ok || !(data instanceof Blob)) { setFailed(true); return; }
        url = URL.createObjectURL(data);
        setSrc(url);
      })
      .catch(() => { if (live) setFailed(true); });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [projectId, version]);
  if (failed) return <p role="alert" className="error">The sample cover could not be drawn. Reload the page to try again.</p>;
  if (!src) return <p aria-busy="true">Drawing a sample cover…</p>;
  return <img className="cover-sample" src={src} width={600} height={315} alt="A sample cover in this brand's palette and cover style, with a sample article title" />;
}
