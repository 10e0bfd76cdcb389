import type { FormEvent } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

/** The name a project gets when none is typed: the site's host. */
function nameFromUrl(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Creates a project from its site's address (and a name, the host by default); the API's errors go on their fields. */
export function CreateProjectForm({ onCreated }: { onCreated(): void }) {
  const action = useAction();

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const websiteUrl = String(data.get('websiteUrl')).trim();
    const name = String(data.get('name')).trim() || nameFromUrl(websiteUrl);
    void action.run(async () => {
      await unwrap(api.POST('/projects', { body: { name, websiteUrl } }));
      form.reset();
      onCreated();
    });
  }

  const urlError = messageFor(action.error, 'websiteUrl');
  const nameError = messageFor(action.error, 'name');
  const general = formMessage(action.error, ['websiteUrl', 'name']);
  return (
    <form onSubmit={create} className="create-project" aria-label="New project" noValidate>
      <label>
        Site address
        <input
          name="websiteUrl"
          type="url"
          required
          placeholder="https://example.com"
          aria-invalid={urlError ? true : undefined}
          aria-describedby="websiteUrl-error"
        />
        <FieldError id="websiteUrl-error" message={urlError} />
      </label>
      <label>
        <span>
          Name <small>(optional: the site's host)</small>
        </span>
        <input
          name="name"
          maxLength={200}
          aria-invalid={nameError ? true : undefined}
          aria-describedby="name-error"
        />
        <FieldError id="name-error" message={nameError} />
      </label>
      <button type="submit" disabled={action.busy}>
        Create project
      </button>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
