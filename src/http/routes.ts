import { articleRoutes } from '../features/articles/api.ts';
import { auditRoutes } from '../features/audit/api.ts';
import { coverRoutes } from '../features/articles/coverApi.ts';
import { projectRoutes } from '../features/projects/api.ts';
import { brandRoutes } from '../features/pipeline/brand/api.ts';
import { publishingRoutes } from '../features/publishing/index.ts';
import { searchAnalyticsRoutes } from '../features/searchAnalytics/index.ts';
import { topicRoutes } from '../features/topics/api.ts';
import { webhookRoutes } from '../features/webhooks/api.ts';
import type { Route } from './route.ts';

/** Every endpoint of /api/v1; each feature folder contributes its own api.ts. */
export const allRoutes: readonly Route[] = [...projectRoutes, ...brandRoutes, ...topicRoutes, ...articleRoutes, ...coverRoutes, ...auditRoutes, ...webhookRoutes, ...publishingRoutes, ...searchAnalyticsRoutes];
