import { articleRoutes } from '../articles/api.ts';
import { auditRoutes } from '../audit/api.ts';
import { coverRoutes } from '../articles/coverApi.ts';
import { projectRoutes } from '../projects/api.ts';
import { brandRoutes } from '../projects/brandApi.ts';
import { publishingRoutes } from '../publishing/register.ts';
import { searchAnalyticsRoutes } from '../searchAnalytics/register.ts';
import { topicRoutes } from '../topics/api.ts';
import { webhookRoutes } from '../webhooks/api.ts';
import type { Route } from './route.ts';

/** Every endpoint of /api/v1; each feature folder contributes its own api.ts. */
export const allRoutes: readonly Route[] = [...projectRoutes, ...brandRoutes, ...topicRoutes, ...articleRoutes, ...coverRoutes, ...auditRoutes, ...webhookRoutes, ...publishingRoutes, ...searchAnalyticsRoutes];
