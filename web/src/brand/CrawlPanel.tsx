import { useState } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { partChanges } from './brandChanges.ts';
import { PART_NAMES, type Brand } from './types.ts';
import { Time } from '../ui/Time.tsx';
import { CorpusStatus } from './CorpusStatus.tsx';

/** Where the crawl stands, a re-crawl, and what the last finished crawl changed (the parts a person edited are kept). */
export function CrawlPanel({
  projectId,
  brand,
  readOnly,
  crawled,
}: {
  projectId: string;
  brand: Brand;
  readOnly: boolean;
  crawled(): Promise<void>;
}) {
  const [overwrite, setOverwrite] = useState(false);
  const action = useAction();
  const recrawl = () =>
    action.run(async () => {
      await unwrap(
        api.POST('/projects/{id}/crawl', {
          params: { path: { id: projectId } },
          body: { overwriteEditedParts: overwrite },
        }),
      );
      await crawled();
    });
  const last = brand.lastCrawl;
  return (
    <section aria-labelledby="crawl-heading">
      <h2 id="crawl-heading">Crawl</h2>
      <p role="status">
        {brand.crawlStatus === 'pending'
          ? 'The site is being crawled…'
          : brand.crawlStatus === 'failed'
            ? 'The last crawl failed; the profile below is from the crawl before.'
            : 'The profile below was learned from the site.'}
      </p>
      <div className="row">
        <label className="tick">
          <input
            type="checkbox"
            checked={overwrite}
            onChange={(event) => setOverwrite(event.target.checked)}
            disabled={readOnly}
          />
          Also replace the parts edited here
          {brand.editedParts.length
            ? ` (${brand.editedParts.map((part) => PART_NAMES[part]).join(', ')})`
            : ''}
        </label>
        <button
          type="button"
          onClick={() => void recrawl()}
          disabled={readOnly || action.busy || brand.crawlStatus === 'pending'}
        >
          Re-crawl the site
        </button>
      </div>
      <ErrorNote error={action.error} />
      <CorpusStatus projectId={projectId} />
      {last && (
        <div className="changes" aria-label="What the last crawl changed" role="region">
          {last.initial ? (
            <p>
              First crawl, <Time at={last.at} />: everything here was learned from the site.
            </p>
          ) : (
            <p>
              Last re-crawl, <Time at={last.at} />:{' '}
              {last.changedParts.length
                ? `changed ${last.changedParts.map((part) => PART_NAMES[part]).join(', ')}.`
                : 'nothing changed.'}
            </p>
          )}
          {last.voiceFallbackReason && (
            <p className="voice-fallback" role="note">
              {last.voiceFallbackReason}
            </p>
          )}
          {last.keptEditedParts.length > 0 && (
            <p>
              Kept as you edited them:{' '}
              {last.keptEditedParts.map((part) => PART_NAMES[part]).join(', ')}.
            </p>
          )}
          {!last.initial &&
            last.changedParts.map((part) => (
              <details key={part} open>
                <summary>{PART_NAMES[part]}</summary>
                <ul>
                  {partChanges(part, last.before, brand).map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              </details>
            ))}
        </div>
      )}
    </section>
  );
}
