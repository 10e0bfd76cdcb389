import type { Page } from './pageTypes.ts';
import { KeysPage } from './keys/KeysPage.tsx';
import { ArticlesBoard } from './boards/ArticlesBoard.tsx';
import { TopicsBoard } from './boards/TopicsBoard.tsx';
import { AuditPage } from './audit/AuditPage.tsx';
import { lazyPage } from './ui/lazyPage.ts';
import { prefetchOpeningArticle } from './article/openingArticle.ts';
import { BrandPage } from './brand/BrandPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { IntegrationsPage } from './integrations/IntegrationsPage.tsx';
import { EndpointPage } from './webhooks/EndpointPage.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';
import { AccountPage } from './account/AccountPage.tsx';
import { MembersPage } from './members/MembersPage.tsx';
import { SessionsPage } from './sessions/SessionsPage.tsx';
import { ProjectOverviewPage } from './projects/ProjectOverviewPage.tsx';
import { ProjectsPage } from './projects/ProjectsPage.tsx';

const ArticlePage = lazyPage(
  '/projects/:projectId/articles/:articleId',
  () => import('./article/ArticlePage.tsx'),
  prefetchOpeningArticle,
);

export const pages: readonly Page[] = [
  {
    path: '/projects',
    title: 'Projects',
    nav: 'Projects',
    render: ({ me }) => <ProjectsPage me={me} />,
  },
  {
    path: '/projects/:projectId',
    title: 'Overview',
    projectTab: 'Overview',
    render: ({ me, params }) => (
      <ProjectOverviewPage
        me={me}
        projectId={params.projectId}
        tabs={pages.filter((page) => page.projectTab && page.path !== '/projects/:projectId')}
      />
    ),
  },
  {
    path: '/keys',
    title: 'API keys',
    nav: 'API keys',
    roles: ['owner'],
    render: ({ me }) => <KeysPage me={me} />,
  },
  {
    path: '/projects/:projectId/topics',
    title: 'Topics',
    projectTab: 'Topics',
    render: (props) => <TopicsBoard {...props} />,
  },
  {
    path: '/projects/:projectId/articles',
    title: 'Articles',
    projectTab: 'Articles',
    render: (props) => <ArticlesBoard {...props} />,
  },
  {
    path: '/projects/:projectId/articles/:articleId',
    title: 'Article',
    render: (props) => <ArticlePage key={props.params.articleId} {...props} />,
  },
  {
    path: '/projects/:projectId/articles/:articleId/history',
    title: 'Article history',
    render: (props) => <AuditPage key={props.params.articleId} {...props} />,
  },
  {
    path: '/projects/:projectId/brand',
    title: 'Brand',
    projectTab: 'Brand',
    render: (props) => <BrandPage {...props} />,
  },
  {
    path: '/projects/:projectId/settings',
    title: 'Project settings',
    projectTab: 'Settings',
    render: (props) => <SettingsPage {...props} />,
  },
  {
    path: '/projects/:projectId/integrations',
    title: 'Integrations',
    projectTab: 'Integrations',
    render: ({ me, params }) => <IntegrationsPage me={me} projectId={params.projectId} />,
  },
  {
    path: '/webhooks',
    title: 'Webhooks',
    nav: 'Webhooks',
    render: ({ me }) => <WebhooksPage me={me} />,
  },
  {
    path: '/webhooks/:endpointId',
    title: 'Webhook endpoint',
    render: ({ me, params }) => <EndpointPage me={me} endpointId={params.endpointId} />,
  },
  {
    path: '/account',
    title: 'Plan and usage',
    nav: 'Account',
    render: ({ me }) => <AccountPage me={me} />,
  },
  {
    path: '/members',
    title: 'Members',
    nav: 'Members',
    render: ({ me }) => <MembersPage me={me} />,
  },
  { path: '/sessions', title: 'Your sessions', nav: 'Sessions', render: () => <SessionsPage /> },
];

/** The page a signed-in person lands on at `/`. */
export const HOME = '/projects';
