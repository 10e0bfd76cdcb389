import { useEffect, useState } from 'react';

type ImageAnswer = { data?: Blob | unknown; response: Response };

/** The image as a data: URL, the one kind of URL besides the page's own origin its img-src allows. */
const dataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

/**
 * An image of the API (a cover, a sample cover) as a data: URL: the request needs the session's
 * bearer token, which an <img src> cannot send. `fetchImage` null means there is no image; it is
 * fetched again when `key` changes. `failed` when the answer was not an image or never came.
 */
export function useImageData(
  fetchImage: (() => Promise<ImageAnswer>) | null,
  key: string,
): { src: string | null; failed: boolean } {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setSrc(null);
    setFailed(false);
    if (!fetchImage) return;
    let live = true;
    fetchImage()
      .then(({ data, response }) => {
        if (!response.ok || !(data instanceof Blob))
          throw new Error(`the image answered ${response.status}`);
        return dataUrl(data);
      })
      .then(
        (url) => {
          if (live) setSrc(url);
        },
        () => {
          if (live) setFailed(true);
        },
      );
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return { src, failed };
}
