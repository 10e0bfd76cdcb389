import { Suspense, type ReactNode } from 'react';
import type { Me } from '../api/appClient.ts';
import { matchPath, pathTo } from '../navigation.ts';
import { pages } from '../pages.tsx';
import { Link } from './Link.tsx';

/** The frame of every signed-in page: who is signed in, the navigation, and a project's tabs on a project's pages. */
export function Shell({
  me,
  path,
  params,
  onSignOut,
  children,
}: {
  me: Me;
  path: string;
  params: Record<string, string>;
  onSignOut(): void;
  children: ReactNode;
}) {
  const allowed = pages.filter((page) => !page.roles || page.roles.includes(me.member.role));
  const current = (pattern: string) => (matchPath(pattern, path) ? 'page' : undefined);
  const tabs = params.projectId ? allowed.filter((page) => page.projectTab) : [];
  return (
    <>
      <header className="bar">
        <strong>Inkstream</strong>
        <nav aria-label="Main">
          {allowed
            .filter((page) => page.nav)
            .map((page) => (
              <Link key={page.path} to={page.path} aria-current={current(page.path)}>
                {page.nav}
              </Link>
            ))}
        </nav>
        <span>
          {me.account.name} · {me.member.name ?? me.member.email} ({me.member.role})
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {tabs.length > 0 && (
        <nav aria-label="Project" className="tabs">
          {tabs.map((page) => (
            <Link key={page.path} to={pathTo(page.path, params)} aria-current={current(page.path)}>
              {page.projectTab}
            </Link>
          ))}
        </nav>
      )}
      <Suspense
        fallback={
          <main aria-busy="true">
            <p>Loading…</p>
          </main>
        }
      >
        {children}
      </Suspense>
    </>
  );
}
