import { diffSummary, unifiedDiff, type DiffSummary } from '../../domain/articles/diff.ts';
import type { Actor, StoredEvent } from '../../eventstore/port.ts';

/** Every content version of an article, in order, each with what changed since the one before. */
export type ContentVersion = {
  version: number;
  kind: 'draft' | 'refresh' | 'revision';
  at: string;
  eventId: string;
  revision: number;
  actor: Actor;
  summary: string | null;
  diff: DiffSummary;
  content: string;
};

export function contentVersions(events: readonly StoredEvent[]): ContentVersion[] {
  const versions: ContentVersion[] = [];
  let previous = '';
  for (const event of events) {
    if (event.type !== 'ArticleDrafted' && event.type !== 'ArticleRevised') continue;
    const content = String(event.data.mdx);
    const kind =
      event.type === 'ArticleRevised'
        ? 'revision'
        : event.data.purpose === 'refresh'
          ? 'refresh'
          : 'draft';
    versions.push({
      version: Number(event.data.version),
      kind,
      at: event.createdAt,
      eventId: event.id,
      revision: Number(event.revision),
      actor: event.metadata.actor,
      summary: typeof event.data.summary === 'string' ? event.data.summary : null,
      diff: diffSummary(previous, content),
      content,
    });
    previous = content;
  }
  return versions;
}

export function versionDiff(versions: readonly ContentVersion[], index: number): string {
  const before = index > 0 ? versions[index - 1].content : '';
  return unifiedDiff(before, versions[index].content, {
    from: index > 0 ? `version ${versions[index - 1].version}` : 'empty',
    to: `version ${versions[index].version}`,
  });
}
