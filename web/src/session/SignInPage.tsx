import type { FormEvent } from 'react';
import { app, type Me } from '../api/appClient.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

const FIELDS = ['email', 'password'] as const;

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const action = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () =>
      onSignedIn(await app.signIn(String(form.get('email')), String(form.get('password')))),
    );
  }

  const fieldError = (field: string) => messageFor(action.error, field);
  // A wrong password or a throttled email names no field: it is said once, for the whole form.
  const general = formMessage(action.error, FIELDS);
  return (
    <main className="narrow">
      <h1>Sign in to Inkstream</h1>
      <form onSubmit={submit}>
        <label>
          Email{' '}
          <input
            name="email"
            type="email"
            autoComplete="username"
            required
            defaultValue={new URLSearchParams(window.location.search).get('email') ?? ''}
            aria-invalid={Boolean(fieldError('email'))}
            aria-describedby="sign-in-email-error"
          />
        </label>
        <FieldError id="sign-in-email-error" message={fieldError('email')} />
        <label>
          Password{' '}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={Boolean(fieldError('password'))}
            aria-describedby="sign-in-password-error"
          />
        </label>
        <FieldError id="sign-in-password-error" message={fieldError('password')} />
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
