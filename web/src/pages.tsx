import type { ReactElement } from 'react';
import type { Me, Role } from './api/appClient.ts';
import { KeysPage } from './keys/KeysPage.tsx';
import { AuditPage } from './audit/AuditPage.tsx';
import { lazyPage } from './ui/lazyPage.ts';

const ArticlePage = lazyPage('/projects/:projectId/articles/:articleId', () => import('./article/ArticlePage.tsx'));

export type PageProps = { me: Me; params: Record<string, string> };

/**
 * Every signed-in page: its path pattern (`:name` is a parameter), its title, and where it is
 * linked from: `nav` in the top navigation, `projectTab` in a project's tabs. `roles` limits who
 * sees the link (the server enforces the same). A new page adds one line here and its pattern to
 * WEB_PAGES in src/features/application/index.ts. A page that brings a heavy library (charts,
 * Markdown, diffs) is imported with React's `lazy(() => import(...))` so the first page stays small.
 */
export type Page = {
  path: string;
  title: string;
  render(props: PageProps): ReactElement;
  nav?: string;
  projectTab?: string;
  roles?: readonly Role[];
};

export const pages: readonly Page[] = [
  { path: '/keys', title: 'API keys', nav: 'API keys', roles: ['owner'], render: ({ me }) => <KeysPage me={me} /> },
  { path: '/projects/:projectId/articles/:articleId', title: 'Article', render: (props) => <ArticlePage key={props.params.articleId} {...props} /> },
  { path: '/projects/:projectId/articles/:articleId/history', title: 'Article history', render: (props) => <AuditPage key={props.params.articleId} {...props} /> },
];

/** The page a signed-in person lands on at `/`. */
export const HOME = '/keys';
