import type { Projection } from '../src/readstore/projection.ts';
import { accounts } from './accounts.ts';
import { apiKeys } from './apiKeys.ts';
import { articles } from './articles.ts';
import { articleSearchMetrics } from './articleSearchMetrics.ts';
import { integrations } from './integrations.ts';
import { projects } from './projects.ts';
import { searchAnalytics } from './searchAnalytics.ts';
import { sitePages } from './sitePages.ts';
import { topics } from './topics.ts';
import { webhooks } from './webhooks.ts';

/** Every read model, in the order they are applied. */
export const allProjections = [accounts, apiKeys, projects, topics, articles, webhooks, integrations, searchAnalytics, articleSearchMetrics, sitePages] as unknown as readonly Projection[];
