import type { components } from '../api/v1.ts';
import { ARTICLE_STATES } from '../articleStates.ts';
import { httpUrl } from '../ui/httpUrl.ts';

export type Project = components['schemas']['Project'];
export type { ArticleStatus } from '../articleStates.ts';

export { ARTICLE_STATES };

/** Only http(s) addresses become links: anything else is shown as text. */

/** The site as a link that opens elsewhere, without handing this page to it. */
export function SiteLink({ url }: { url: string }) {
  if (!httpUrl(url)) return <span>{url}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {url.replace(/^https?:\/\//i, '').replace(/\/$/, '')}
    </a>
  );
}

/** Where the brand crawl is, in words; a polite live region, so a screen reader hears it finish. */
export function CrawlState({ crawl }: { crawl: Project['crawl'] }) {
  const text =
    crawl.status === 'pending'
      ? 'Crawling the site…'
      : crawl.status === 'done'
        ? `Brand learned from ${crawl.pagesCrawled} page${crawl.pagesCrawled === 1 ? '' : 's'}`
        : `Crawl failed${crawl.failureReason ? `: ${crawl.failureReason}` : ''}`;
  return (
    <p
      className={`crawl crawl-${crawl.status}`}
      role="status"
      aria-live="polite"
      data-crawl={crawl.status}
    >
      {text}
    </p>
  );
}

/** Who writes the drafts: the model and its name, or the offline writer, which writes briefs. */
export function WriterState({ writer }: { writer: NonNullable<Project['writer']> }) {
  return (
    <p className="writer" data-writer={writer.writer}>
      {writer.writer === 'model'
        ? `Writer: the model ${writer.model ?? ''}`.trimEnd()
        : 'Writer: offline (no model is set up on the server: drafts are briefs, not articles)'}
    </p>
  );
}

export function PausedBadge({ paused }: { paused: boolean }) {
  return (
    <span className={paused ? 'badge paused' : 'badge active'}>{paused ? 'Paused' : 'Active'}</span>
  );
}

/** Articles by state: every state that has some, or a sentence when there are none. */
export function ArticleCounts({
  counts,
  all = false,
}: {
  counts: Project['articleCounts'];
  all?: boolean;
}) {
  const shown = ARTICLE_STATES.filter(({ status }) => all || counts[status] > 0);
  if (shown.length === 0) return <p className="counts-none">No articles yet</p>;
  return (
    <dl className="counts">
      {shown.map(({ status, label }) => (
        <div key={status} data-status={status}>
          <dt>{label}</dt>
          <dd>{counts[status]}</dd>
        </div>
      ))}
    </dl>
  );
}
