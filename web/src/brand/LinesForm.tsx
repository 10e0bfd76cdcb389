import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

export type LinesField = { field: string; label: string; lines: readonly string[] };

const asLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Lists edited as text, one item a line (voice traits; do and don't), saved together as one part. */
export function LinesForm({
  name,
  fields,
  readOnly,
  save,
}: {
  name: string;
  fields: readonly LinesField[];
  readOnly: boolean;
  save(values: Record<string, string[]>): Promise<unknown>;
}) {
  const [texts, setTexts] = useState(() => fields.map((field) => field.lines.join('\n')));
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() =>
      save(Object.fromEntries(fields.map((field, i) => [field.field, asLines(texts[i])]))),
    );
  };
  const general = formMessage(
    action.error,
    fields.map((field) => field.field),
  );
  const idOf = (field: string) => `${field.replace(/\W/g, '-')}-error`;
  return (
    <form onSubmit={submit} aria-label={name}>
      <fieldset disabled={readOnly || action.busy} className="row">
        {fields.map((field, i) => (
          <label key={field.field}>
            {field.label} <small>(one a line)</small>
            <textarea
              value={texts[i]}
              rows={Math.min(10, Math.max(3, field.lines.length + 1))}
              aria-describedby={idOf(field.field)}
              onChange={(event) =>
                setTexts(texts.map((text, j) => (j === i ? event.target.value : text)))
              }
            />
            <FieldError id={idOf(field.field)} message={messageFor(action.error, field.field)} />
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={readOnly || action.busy}>
        Save {name.toLowerCase()}
      </button>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
