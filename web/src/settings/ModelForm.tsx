import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { ProjectUpdate } from './types.ts';

/** The project's model; empty uses the server's default. The server names the models it allows when it refuses one. */
export function ModelForm({
  model,
  readOnly,
  save,
}: {
  model: string | null;
  readOnly: boolean;
  save(update: ProjectUpdate): Promise<unknown>;
}) {
  const [value, setValue] = useState(model ?? '');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ settings: { model: value.trim() || null } }));
  };
  const general = formMessage(action.error, ['settings.model']);
  return (
    <form onSubmit={submit} aria-label="Model">
      <fieldset disabled={readOnly || action.busy}>
        <label>
          Model
          <input
            value={value}
            onChange={(event) => setValue(event.target.value)}
            maxLength={100}
            placeholder="the server's default"
            aria-invalid={Boolean(messageFor(action.error, 'settings.model'))}
            aria-describedby="model-hint model-error"
          />
          <small id="model-hint">Leave empty for the server's default model.</small>
          <FieldError id="model-error" message={messageFor(action.error, 'settings.model')} />
        </label>
        <button type="submit">Save model</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
