import type { FormEvent } from 'react';
import { app, type Me } from '../api/appClient.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const action = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => onSignedIn(await app.signIn(String(form.get('email')), String(form.get('password')))));
  }

  return (
    <main className="narrow">
      <h1>Sign in to Inkstream</h1>
      <form onSubmit={submit}>
        <label>Email <input name="email" type="email" autoComplete="username" required defaultValue={new URLSearchParams(window.location.search).get("email") ?? ""} /></label>
        <label>Password <input name="password" type="password" autoComplete="current-password" required /></label>
        <ErrorNote error={action.error} />
        <button type="submit" disabled={action.busy}>Sign in</button>
      </form>
    </main>
  );
}
