import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { Brand, BrandUpdate } from './types.ts';

const CHOICES = {
  mood: ['calm', 'bold', 'playful', 'technical', 'elegant'],
  shapes: ['waves', 'circles', 'grid', 'diagonal', 'blocks'],
  typography: ['sans', 'serif', 'mono'],
} as const;
const FIELDS = Object.keys(CHOICES) as Array<keyof typeof CHOICES>;

export function CoverStyleForm({
  coverStyle,
  readOnly,
  save,
}: {
  coverStyle: Brand['coverStyle'];
  readOnly: boolean;
  save(update: BrandUpdate): Promise<unknown>;
}) {
  const [style, setStyle] = useState(coverStyle);
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ coverStyle: style }));
  };
  const general = formMessage(
    action.error,
    FIELDS.map((field) => `coverStyle.${field}`),
  );
  return (
    <form onSubmit={submit} aria-label="Cover style">
      <fieldset disabled={readOnly || action.busy} className="row">
        {FIELDS.map((field) => (
          <label key={field}>
            {field === 'mood' ? 'Mood' : field === 'shapes' ? 'Shapes' : 'Typography'}
            <select
              value={style[field]}
              onChange={(event) => setStyle({ ...style, [field]: event.target.value })}
              aria-describedby={`cover-${field}-error`}
            >
              {CHOICES[field].map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
            <FieldError
              id={`cover-${field}-error`}
              message={messageFor(action.error, `coverStyle.${field}`)}
            />
          </label>
        ))}
        <button type="submit">Save cover style</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
