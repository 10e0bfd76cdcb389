import type { QualityCheck } from './articleApi.ts';
import type { Finding } from './checkFindings.ts';

/**
 * The content checks of the version shown (docs/content-quality.md): each check's verdict, and
 * for each finding the sentence (a link to its mark in the text) and the source passage it was
 * checked against. Every quoted string is model or site text, shown as text.
 */
export function ChecksPanel({
  checks,
  findings,
}: {
  checks: readonly QualityCheck[];
  findings: readonly Finding[];
}) {
  if (checks.length === 0)
    return (
      <aside className="checks" aria-label="Content checks">
        <p>No content checks were recorded for this version.</p>
      </aside>
    );
  return (
    <aside className="checks" aria-label="Content checks">
      <h2>Content checks</h2>
      <ul className="check-list">
        {checks.map((check) => (
          <li key={check.name} className={`check check-${check.status}`}>
            <strong>{check.name}</strong> <span className="verdict">{check.status}</span>
            <p>{check.message}</p>
            <ul>
              {findings
                .filter((finding) => finding.check === check.name)
                .map((finding) => (
                  <li key={finding.id} className="finding-note">
                    {finding.start !== null ? (
                      <a href={`#${finding.id}`}>“{finding.text}”</a>
                    ) : (
                      <span>“{finding.text}”</span>
                    )}
                    <p>{finding.note}</p>
                    {finding.source && (
                      <blockquote className="source-passage">
                        <p>{finding.source.passage}</p>
                        <footer>
                          Source: <span className="url">{finding.source.url}</span>
                        </footer>
                      </blockquote>
                    )}
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
    </aside>
  );
}
