import { useId, type ReactElement } from 'react';
import type { RequestFailed } from '../api/appClient.ts';

export type FieldA11y = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string };

/** A labelled control with the API's message for it beside it (announced, and tied to the control). */
export function Field({ label, error, hint, children }: { label: string; error?: string; hint?: string; children(a11y: FieldA11y): ReactElement }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), ...(described ? { 'aria-describedby': described } : {}) })}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && <p id={`${id}-error`} className="error" role="alert">{error}</p>}
    </div>
  );
}

/**
 * The API's messages for a form's fields (`body.credentials.token` → `credentials.token`), and the
 * whole-form message when none of them names a field shown.
 */
export function formErrors(failure: RequestFailed | null, shown: readonly string[]) {
  const field = (name: string): string | undefined => failure?.fieldMessage(name);
  const general = failure && !shown.some((name) => field(name)) ? failure.message : null;
  return { field, general };
}
