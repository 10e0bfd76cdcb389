import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

/** The API's limit (docs/webhooks.md, "The description"). */
export const DESCRIPTION_MAX = 200;

/** What the endpoint is for: one line of plain text, saved with PATCH; empty removes it. */
export function DescriptionForm({
  endpointId,
  description,
  canWrite,
  onSaved,
}: {
  endpointId: string;
  description: string | null;
  canWrite: boolean;
  onSaved(): Promise<void>;
}) {
  const [value, setValue] = useState(description ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    setValue(description ?? '');
  }, [description]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void action.run(async () => {
      await unwrap(
        api.PATCH('/webhooks/{id}', {
          params: { path: { id: endpointId } },
          body: { description: value.trim() || null },
        }),
      );
      await onSaved();
      setSaved(true);
    });
  };
  const error = messageFor(action.error, 'description');
  const general = formMessage(action.error, ['description']);
  return (
    <form onSubmit={submit} aria-label="Description" className="inline">
      <label>
        Description
        <input
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setSaved(false);
          }}
          maxLength={DESCRIPTION_MAX}
          placeholder="what this endpoint is for"
          disabled={!canWrite}
          aria-invalid={error ? true : undefined}
          aria-describedby="endpoint-description-error"
        />
        <FieldError id="endpoint-description-error" message={error} />
      </label>
      <button type="submit" disabled={!canWrite || action.busy}>
        Save description
      </button>
      {saved && <span role="status">Description saved.</span>}
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
