import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';

export type HistoryEntry = components['schemas']['HistoryEntry'];

/** An article's whole history, page after page (a page holds up to 1,000 events). */
export async function loadHistory(articleId: string): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/articles/{id}/history', {
        params: { path: { id: articleId }, query: { limit: 1000, cursor } },
      }),
    );
    entries.push(...page.history);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return entries;
}

/**
 * Who did it, as the server's audit log names actors (src/features/audit/timeline.ts describeActor);
 * a member by their name (or address) when `members` knows them, by id otherwise (a member since removed).
 */
export function describeActor(
  actor: Record<string, unknown>,
  members: ReadonlyMap<string, string> = new Map(),
): string {
  const text = (key: string) => (typeof actor[key] === 'string' ? actor[key] : '?');
  switch (actor.kind) {
    case 'api_key':
      return `API key ${actor.keyName ? `"${text('keyName')}"` : text('keyId')}`;
    case 'system':
      return `Inkstream (${text('worker')})`;
    case 'github':
      return `GitHub user ${text('login')}`;
    case 'cli':
      return `CLI: ${text('user')}`;
    case 'member':
      return members.get(text('memberId')) ?? `member ${text('memberId')}`;
    default:
      return 'unknown';
  }
}

/** `ArticleRevisionRequested` → "Revision requested". */
export function eventLabel(type: string): string {
  const words = type
    .replace(/^Article/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The one detail a reader wants of a step, as plain text (it may quote model or user text). */
export function eventDetail(entry: HistoryEntry): string {
  const data = entry.data;
  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
  switch (entry.type) {
    case 'ArticleQueued':
      return text('title');
    case 'ArticleDrafted':
    case 'ArticleRevised':
      return `version ${String(data.version)}${text('summary') ? `: ${text('summary')}` : ''}`;
    case 'ArticleRevisionRequested':
      return text('instruction');
    case 'ArticleFailed':
    case 'ArticleRevisionFailed':
      return text('reason');
    case 'ArticlePullRequestOpened':
    case 'ArticleMerged':
    case 'ArticleClosed':
      return text('prUrl');
    case 'ArticleBuildObserved': {
      const build = data.build as { state?: string; headSha?: string } | undefined;
      return build ? `site build ${build.state ?? ''} on ${(build.headSha ?? '').slice(0, 7)}` : '';
    }
    case 'ArticleSearchMetricsUpdated': {
      const current = data.current as { clicks?: number; impressions?: number } | undefined;
      return current
        ? `${current.clicks ?? 0} clicks, ${current.impressions ?? 0} impressions`
        : '';
    }
    default:
      return entry.generation
        ? `${entry.generation.provider}${entry.generation.model ? ` ${entry.generation.model}` : ''}`
        : '';
  }
}
