import { z } from 'zod';
import {
  SEARCH_ANALYTICS_COLLECTION,
  type SearchAnalyticsDoc,
} from '../../../projections/searchAnalytics.ts';
import { route } from '../../http/route.ts';
import { idOf, Pagination } from '../../http/schemas.ts';
import type { Platform } from '../../platform.ts';
import { ownedProject } from '../projects/owned.ts';
import {
  DECAY_FINDINGS,
  DECAY_PROJECTS,
  ensureDecayCollections,
  type DecayFindingDoc,
  type DecayProjectDoc,
} from './dailyStore.ts';
import { DecayFinding, presentFinding, type DecayFindingView } from './decaySchemas.ts';

const Refreshes = z
  .object({
    better: z.number().int(),
    unchanged: z.number().int(),
    worse: z.number().int(),
    waitingForData: z.number().int(),
    helpedShare: z
      .number()
      .nullable()
      .describe('better / (better + unchanged + worse); null until a refresh is measured'),
  })
  .meta({ id: 'RefreshOutcomes' });

/**
 * The decay findings of a project, worst first (severity, then the number and weight of signals),
 * as the last sync judged them; the refreshes measured. Without a working connection the list is
 * empty and `assessedAt` null.
 */
export const projectDecayRoute = route({
  method: 'get',
  path: '/projects/:id/decay',
  tag: 'Integrations',
  summary: "The project's decay findings from Search Console, worst first",
  params: z.object({ id: idOf('prj') }),
  query: z.object({ ...Pagination }),
  responses: {
    200: z.object({
      findings: z.array(DecayFinding),
      nextCursor: z.string().nullable(),
      assessedAt: z.string().nullable().describe('When the last sync judged the articles'),
      refreshes: Refreshes,
    }),
  },
  errors: [404],
  async handle({ params, query, auth, platform }) {
    await ownedProject({ platform, auth }, params.id);
    await ensureDecayCollections(platform.readStore);
    const connection = await platform.readStore.get<SearchAnalyticsDoc>(
      SEARCH_ANALYTICS_COLLECTION,
      params.id,
    );
    const working = connection?.status === 'ok' ? connection : null;
    const page = working
      ? await platform.readStore.find<DecayFindingDoc>(DECAY_FINDINGS, {
          filter: { projectId: params.id, property: working.property },
          sort: { field: 'rank', direction: 'desc' },
          limit: query.limit,
          cursor: query.cursor,
        })
      : { items: [], nextCursor: null };
    const summary = working
      ? await platform.readStore.get<DecayProjectDoc>(DECAY_PROJECTS, params.id)
      : null;
    const counts = summary?.refreshes ?? { better: 0, unchanged: 0, worse: 0, waitingForData: 0 };
    const measured = counts.better + counts.unchanged + counts.worse;
    return {
      status: 200,
      body: {
        findings: page.items.map(presentFinding),
        nextCursor: page.nextCursor,
        assessedAt: summary?.assessedAt ?? null,
        refreshes: {
          ...counts,
          helpedShare: measured > 0 ? Math.round((counts.better / measured) * 100) / 100 : null,
        },
      },
    };
  },
});

/** The article's finding, or null without one yet; null (the field left out) without a working connection. */
export async function decayOf(
  platform: Pick<Platform, 'readStore'>,
  projectId: string,
  articleId: string,
): Promise<{ finding: DecayFindingView | null } | null> {
  const connection = await platform.readStore.get<SearchAnalyticsDoc>(
    SEARCH_ANALYTICS_COLLECTION,
    projectId,
  );
  if (connection?.status !== 'ok') return null;
  await ensureDecayCollections(platform.readStore);
  const doc = await platform.readStore.get<DecayFindingDoc>(DECAY_FINDINGS, articleId);
  return { finding: doc && doc.property === connection.property ? presentFinding(doc) : null };
}
