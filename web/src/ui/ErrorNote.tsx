import type { RequestFailed } from '../api/appClient.ts';

/** The API's error for the whole form or page (a field's own message goes beside the field). */
export function ErrorNote({ error }: { error: RequestFailed | null | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error.message}
    </p>
  );
}
