import { useState, type FormEvent } from 'react';
import { app, RequestFailed } from '../api/appClient.ts';
import { navigate } from '../navigation.ts';

/** Opened from a one-time link: the token is in the fragment, which no server sees. */
export function SetPasswordPage() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    setBusy(true);
    setFailure(null);
    try {
      const done = await app.setPassword({ token, password: String(form.get('password')), ...(email ? { email } : {}), ...(name ? { name } : {}) });
      navigate(`/sign-in?email=${encodeURIComponent(done.email)}`);
    } catch (error) {
      setFailure(error instanceof RequestFailed ? error : new RequestFailed({ status: 0, code: 'network', message: 'Could not reach Inkstream.' }));
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (field: string) => failure?.fieldMessage(field);
  const general = failure && !['email', 'password', 'name'].some((field) => fieldError(field)) ? failure.message : null;
  return (
    <main className="narrow">
      <h1>Set your password</h1>
      <p>Links work once and for 24 hours. Your email is what you will sign in with (the first owner gives it here).</p>
      <form onSubmit={submit}>
        <label>Email (if the link did not come with one) <input name="email" type="email" autoComplete="username" aria-invalid={Boolean(fieldError('email'))} aria-describedby="email-error" /></label>
        {fieldError('email') && <p id="email-error" className="error" role="alert">{fieldError('email')}</p>}
        <label>Your name <input name="name" autoComplete="name" aria-invalid={Boolean(fieldError('name'))} aria-describedby="name-error" /></label>
        {fieldError('name') && <p id="name-error" className="error" role="alert">{fieldError('name')}</p>}
        <label>New password (at least 10 characters) <input name="password" type="password" autoComplete="new-password" required minLength={10} aria-invalid={Boolean(fieldError('password'))} aria-describedby="password-error" /></label>
        {fieldError('password') && <p id="password-error" className="error" role="alert">{fieldError('password')}</p>}
        {general && <p role="alert" className="error">{general}</p>}
        <button type="submit" disabled={busy || !token}>Set password</button>
      </form>
    </main>
  );
}
