import { useState, type FormEvent } from 'react';
import { formMessage } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { ProjectUpdate } from './types.ts';

/** Whether articles get a cover drawn from the brand. */
export function CoversForm({
  enabled,
  readOnly,
  save,
}: {
  enabled: boolean;
  readOnly: boolean;
  save(update: ProjectUpdate): Promise<unknown>;
}) {
  const [on, setOn] = useState(enabled);
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ settings: { covers: { enabled: on } } }));
  };
  const general = formMessage(action.error, []);
  return (
    <form onSubmit={submit} aria-label="Covers">
      <fieldset disabled={readOnly || action.busy}>
        <label className="tick">
          <input type="checkbox" checked={on} onChange={(event) => setOn(event.target.checked)} />
          Draw a cover for each article from the brand's palette and cover style
        </label>
        <button type="submit">Save covers</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
