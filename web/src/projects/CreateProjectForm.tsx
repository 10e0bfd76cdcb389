import { useState, type FormEvent } from 'react';
import { RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { asRequestFailed } from '../ui/useResource.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';

/** The name a project gets when none is typed: the site's host. */
function nameFromUrl(url: string): string {
  try { return new URL(url).host || url; } catch { return url; }
}

/** Creates a project from its site's address (and a name, the host by default); the API's errors go on their fields. */
export function CreateProjectForm({ onCreated }: { onCreated(): void }) {
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const websiteUrl = String(data.get('websiteUrl')).trim();
    const name = String(data.get('name')).trim() || nameFromUrl(websiteUrl);
    setBusy(true);
    setFailure(null);
    try {
      await unwrap(api.POST('/projects', { body: { name, websiteUrl } }));
      form.reset();
      onCreated();
    } catch (error) {
      setFailure(asRequestFailed(error));
    } finally {
      setBusy(false);
    }
  }

  const urlError = failure?.fieldMessage('websiteUrl');
  const nameError = failure?.fieldMessage('name');
  return (
    <form onSubmit={create} className="create-project" aria-label="New project" noValidate>
      <label>
        Site address
        <input name="websiteUrl" type="url" required placeholder="https://example.com" aria-invalid={urlError ? true : undefined} aria-describedby={urlError ? 'websiteUrl-error' : undefined} />
        {urlError && <span id="websiteUrl-error" className="error">{urlError}</span>}
      </label>
      <label>
        <span>Name <small>(optional: the site's host)</small></span>
        <input name="name" maxLength={200} aria-invalid={nameError ? true : undefined} aria-describedby={nameError ? 'name-error' : undefined} />
        {nameError && <span id="name-error" className="error">{nameError}</span>}
      </label>
      <button type="submit" disabled={busy}>Create project</button>
      {failure && !urlError && !nameError && <ErrorNote error={failure} />}
    </form>
  );
}
