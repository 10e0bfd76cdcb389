import {
  ARTICLE_PUBLICATIONS_COLLECTION,
  type ArticlePublicationsDoc,
} from '../../../projections/articlePublications.ts';
import type { ArticleDoc } from '../../../projections/articles.ts';
import type { ProjectDoc } from '../../../projections/projects.ts';
import { measureRefresh, type RefreshOutcome } from '../../domain/decay/outcome.ts';
import { assessDecay, SEVERITY_RANK } from '../../domain/decay/rules.ts';
import { decaySettingsOf } from '../../domain/decay/settings.ts';
import type { ReadStore } from '../../readstore/port.ts';
import {
  DECAY_FINDINGS,
  DECAY_PROJECTS,
  ensureDecayCollections,
  SEARCH_DAILY,
  SEARCH_DAILY_COVERAGE,
  type DailyCoverageDoc,
  type DecayFindingDoc,
  type DecayProjectDoc,
  type SearchDailyDoc,
} from './dailyStore.ts';

const CHUNK = 200;

export type DecayPassInput = {
  readStore: ReadStore;
  project: Pick<ProjectDoc, 'id' | 'accountId' | 'settings'>;
  property: string;
  /** The published articles to judge. */
  articles: readonly ArticleDoc[];
  /** The last complete day of figures (the sync period's end). */
  end: string;
  at: string;
};

/**
 * The decay pass of one project: each published article judged from its recorded days (one
 * document per article, read in chunks; no article stream is read), the latest merged refresh
 * measured, and the project's tally. Deterministic: run twice on the same figures, it writes the
 * same findings.
 */
export async function runDecayPass(input: DecayPassInput): Promise<DecayProjectDoc> {
  const { readStore, project, property, articles, end, at } = input;
  await ensureDecayCollections(readStore);
  const settings = decaySettingsOf(project.settings.decay);
  const coverage = await readStore.get<DailyCoverageDoc>(SEARCH_DAILY_COVERAGE, project.id);
  const recordedFrom = coverage?.property === property ? coverage.from : null;
  const verdicts: Record<string, number> = {};
  const refreshes = { better: 0, unchanged: 0, worse: 0, waitingForData: 0 };
  for (let index = 0; index < articles.length; index += CHUNK) {
    const chunk = articles.slice(index, index + CHUNK);
    const ids = chunk.map((article) => article.id);
    const [daily, publications] = await Promise.all([
      readStore.getMany<SearchDailyDoc>(SEARCH_DAILY, ids),
      readStore.getMany<ArticlePublicationsDoc>(ARTICLE_PUBLICATIONS_COLLECTION, ids),
    ]);
    const dailyOf = new Map(
      daily.filter((doc) => doc.property === property).map((doc) => [doc.id, doc]),
    );
    const publishedOf = new Map(publications.map((doc) => [doc.id, doc]));
    for (const article of chunk) {
      const days = dailyOf.get(article.id) ?? { days: {}, queries: {} };
      const publication = publishedOf.get(article.id);
      const assessment = assessDecay(
        {
          publishedAt: publication?.firstPublishedAt ?? article.publishedAt!,
          text: article.body ?? article.content,
          daily: days,
        },
        recordedFrom,
        end,
        settings,
      );
      const merged = publication?.refreshes.filter((refresh) => refresh.mergedAt !== null).at(-1);
      const refresh: RefreshOutcome | null = merged
        ? measureRefresh(merged.mergedAt!, days.days, recordedFrom, end, settings.minClicks)
        : null;
      if (refresh)
        refreshes[refresh.outcome === 'waiting_for_data' ? 'waitingForData' : refresh.outcome]++;
      verdicts[assessment.verdict] = (verdicts[assessment.verdict] ?? 0) + 1;
      await readStore.save(DECAY_FINDINGS, {
        id: article.id,
        projectId: project.id,
        accountId: project.accountId,
        title: article.title,
        property,
        assessedAt: at,
        rank: SEVERITY_RANK[assessment.severity] * 1000 + Math.min(assessment.score, 999),
        refresh,
        ...assessment,
      } satisfies DecayFindingDoc);
    }
  }
  const summary: DecayProjectDoc = {
    id: project.id,
    assessedAt: at,
    end,
    articles: articles.length,
    verdicts,
    refreshes,
  };
  await readStore.save(DECAY_PROJECTS, summary);
  return summary;
}
