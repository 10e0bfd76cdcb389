import { useEffect, useState } from 'react';
import { api } from '../api/v1Client.ts';

/** The image as a data: URL, the one kind of URL besides the page's own origin its img-src allows. */
const dataUrl = (blob: Blob) => new Promise<string>((resolve, reject) => {
  const reader = new FileReader();
  reader.onload = () => resolve(String(reader.result));
  reader.onerror = () => reject(reader.error);
  reader.readAsDataURL(blob);
});

/**
 * The server's sample cover for this brand. Fetched with the session's bearer token (an <img src>
 * cannot send one) and shown as a data: URL; `version` changes when the palette or style does.
 */
export function CoverSample({ projectId, version }: { projectId: string; version: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setFailed(false);
    api.GET('/projects/{id}/brand/cover-sample', { params: { path: { id: projectId } }, parseAs: 'blob' })
      .then(({ data, response }) => {
        if (!live) return;
        if (!response.ok || !(data instanceof Blob)) { setFailed(true); return; }
        return dataUrl(data).then((url) => { if (live) setSrc(url); });
      })
      .catch(() => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [projectId, version]);
  if (failed) return <p role="alert" className="error">The sample cover could not be drawn. Reload the page to try again.</p>;
  if (!src) return <p aria-busy="true">Drawing a sample cover…</p>;
  return <img className="cover-sample" src={src} width={600} height={315} alt="A sample cover in this brand's palette and cover style, with a sample article title" />;
}
