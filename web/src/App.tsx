import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import {
  app,
  refreshMe,
  sessionAtStart,
  whenMeChanged,
  whenSignedOut,
  type Me,
} from './api/appClient.ts';
import { forgetAccessToken } from './api/v1Client.ts';
import { matchPath, navigate, usePath } from './navigation.ts';
import { HOME, pages } from './pages.tsx';
import { SetPasswordPage } from './session/SetPasswordPage.tsx';
import { SignInPage } from './session/SignInPage.tsx';
import { Shell } from './ui/Shell.tsx';
import { openingPageReady } from './ui/lazyPage.ts';
import { dropPrerendered, prerenderedAt } from './article/prerendered.ts';

/** Sign-in and set-password need no session; every other page sends a signed-out person to sign in and back to the same page. */
export function App() {
  const path = usePath();
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  const signedOut = useCallback(() => {
    setMe(null);
    forgetAccessToken();
    const here = window.location.pathname + window.location.search;
    if (!['/sign-in', '/set-password'].includes(window.location.pathname))
      navigate(`/sign-in?next=${encodeURIComponent(here)}`);
  }, []);
  useEffect(() => whenSignedOut(signedOut), [signedOut]);
  // Only a real change re-renders: a return to the tab asks again and usually hears the same.
  useEffect(
    () =>
      whenMeChanged((who) =>
        setMe((current) => (JSON.stringify(current) === JSON.stringify(who) ? current : who)),
      ),
    [],
  );
  // The page the tab opened at shows once its chunk is in too (openingPageReady: no Suspense fallback, no reveal delay).
  useEffect(() => {
    sessionAtStart().then(
      async (who) => {
        await openingPageReady();
        setMe(who);
      },
      () => setMe(null),
    );
  }, []);
  // A tab left open: coming back to it asks the server, so an expired or revoked session goes to sign-in now, not at the next click,
  // and a role another owner changed meanwhile shows at once.
  useEffect(() => {
    let checking = false; // focus and visibilitychange both fire on a return to the tab: one question is enough
    const recheck = () => {
      if (
        checking ||
        document.visibilityState !== 'visible' ||
        ['/sign-in', '/set-password'].includes(window.location.pathname)
      )
        return;
      checking = true;
      void refreshMe()
        .catch(() => undefined)
        .finally(() => {
          checking = false;
        });
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, []);
  // The article the server prerendered is the article page's to replace; signed out or elsewhere, it goes before anything is painted.
  useLayoutEffect(() => {
    if (me === null || (me !== undefined && !prerenderedAt(path))) dropPrerendered();
  }, [me, path]);

  if (path === '/set-password') return <SetPasswordPage />;
  if (path === '/sign-in')
    return (
      <SignInPage
        onSignedIn={(who) => {
          setMe(who);
          navigate(safeNext(new URLSearchParams(window.location.search).get('next')));
        }}
      />
    );
  if (me === undefined)
    return prerenderedAt(path) ? null : (
      <main aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  if (me === null) {
    navigate(`/sign-in?next=${encodeURIComponent(path)}`);
    return null;
  }
  if (path === '/') {
    navigate(HOME);
    return null;
  }

  const found = pages
    .map((page) => ({ page, params: matchPath(page.path, path) }))
    .find((candidate) => candidate.params);
  return (
    <Shell
      me={me}
      path={path}
      params={found?.params ?? {}}
      onSignOut={() => {
        void app.signOut().finally(signedOut);
      }}
    >
      {found ? (
        found.page.render({ me, params: found.params! })
      ) : (
        <main>
          <h1>Not found</h1>
          <p>There is no page at this address.</p>
        </main>
      )}
    </Shell>
  );
}

/** Only a path on this site: `next` comes from the address bar, and an absolute URL there would send the person elsewhere. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : HOME;
}
