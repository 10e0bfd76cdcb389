import type { FormEvent } from 'react';
import { app } from '../api/appClient.ts';
import { navigate } from '../navigation.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

const FIELDS = ['email', 'password', 'name'] as const;

/** Opened from a one-time link: the token is in the fragment, which no server sees. */
export function SetPasswordPage() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const action = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    void action.run(async () => {
      const done = await app.setPassword({
        token,
        password: String(form.get('password')),
        ...(email ? { email } : {}),
        ...(name ? { name } : {}),
      });
      navigate(`/sign-in?email=${encodeURIComponent(done.email)}`);
    });
  }

  const fieldError = (field: string) => messageFor(action.error, field);
  const general = formMessage(action.error, FIELDS);
  return (
    <main className="narrow">
      <h1>Set your password</h1>
      <p>
        Links work once and for 24 hours. Your email is what you will sign in with (the first owner
        gives it here).
      </p>
      <form onSubmit={submit}>
        <label>
          Email (if the link did not come with one){' '}
          <input
            name="email"
            type="email"
            autoComplete="username"
            aria-invalid={Boolean(fieldError('email'))}
            aria-describedby="email-error"
          />
        </label>
        <FieldError id="email-error" message={fieldError('email')} />
        <label>
          Your name{' '}
          <input
            name="name"
            autoComplete="name"
            aria-invalid={Boolean(fieldError('name'))}
            aria-describedby="name-error"
          />
        </label>
        <FieldError id="name-error" message={fieldError('name')} />
        <label>
          New password (at least 10 characters){' '}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            aria-invalid={Boolean(fieldError('password'))}
            aria-describedby="password-error"
          />
        </label>
        <FieldError id="password-error" message={fieldError('password')} />
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <button type="submit" disabled={action.busy || !token}>
          Set password
        </button>
      </form>
    </main>
  );
}
