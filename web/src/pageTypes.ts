import type { ReactElement } from 'react';
import type { Me, Role } from './api/appClient.ts';

export type PageProps = { me: Me; params: Record<string, string> };

/**
 * Every signed-in page: its path pattern (`:name` is a parameter), its title, and where it is
 * linked from: `nav` in the top navigation, `projectTab` in a project's tabs. `roles` limits who
 * sees the link (the server enforces the same). A new page adds one line to pages.tsx and its pattern to
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
