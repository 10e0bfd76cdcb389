import { useCallback, useEffect, useState } from 'react';
import { app, whenSignedOut, type Me } from './api/appClient.ts';
import { forgetAccessToken } from './api/v1Client.ts';
import { KeysPage } from './keys/KeysPage.tsx';
import { navigate, usePath } from './navigation.ts';
import { SetPasswordPage } from './session/SetPasswordPage.tsx';
import { SignInPage } from './session/SignInPage.tsx';

/** The pages: sign-in and set-password need no session; the others send a signed-out person to sign in and back. */
export function App() {
  const path = usePath();
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  const signedOut = useCallback(() => {
    setMe(null);
    forgetAccessToken();
    const here = window.location.pathname;
    if (here !== '/sign-in' && here !== '/set-password') navigate(`/sign-in?next=${encodeURIComponent(here)}`);
  }, []);
  useEffect(() => whenSignedOut(signedOut), [signedOut]);
  useEffect(() => { app.me().then(setMe, () => setMe(null)); }, []);

  if (path === '/set-password') return <SetPasswordPage />;
  if (path === '/sign-in') return <SignInPage onSignedIn={(who) => { setMe(who); navigate(new URLSearchParams(window.location.search).get('next') ?? '/keys'); }} />;
  if (me === undefined) return <main aria-busy="true"><p>Loading…</p></main>;
  if (me === null) { navigate(`/sign-in?next=${encodeURIComponent(path)}`); return null; }
  return (
    <>
      <header className="bar">
        <strong>Inkstream</strong>
        <span>{me.account.name} · {me.member.name ?? me.member.email} ({me.member.role})</span>
        <button type="button" onClick={() => { void app.signOut().finally(signedOut); }}>Sign out</button>
      </header>
      <KeysPage me={me} />
    </>
  );
}
