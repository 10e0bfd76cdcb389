import { useState, type FormEvent } from 'react';
import { app, RequestFailed, type Me } from '../api/appClient.ts';

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await app.signIn(String(form.get('email')), String(form.get('password'))));
    } catch (failure) {
      setError(failure instanceof RequestFailed ? failure.message : 'Could not reach Inkstream.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="narrow">
      <h1>Sign in to Inkstream</h1>
      <form onSubmit={submit}>
        <label>Email <input name="email" type="email" autoComplete="username" required defaultValue={new URLSearchParams(window.location.search).get("email") ?? ""} /></label>
        <label>Password <input name="password" type="password" autoComplete="current-password" required /></label>
        {error && <p role="alert" className="error">{error}</p>}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
    </main>
  );
}
