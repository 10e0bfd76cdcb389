import type { components } from '../api/v1.ts';

export type DecayFinding = components['schemas']['DecayFinding'];
type Signal = DecayFinding['signals'][number];
type Window = { start: string; end: string };

const VERDICTS: Record<DecayFinding['verdict'], string> = {
  decaying: 'Decaying',
  steady: 'Steady',
  not_enough_history: 'Not enough history',
  too_small: 'Too little traffic to judge',
};
const OUTCOMES = {
  better: 'better',
  unchanged: 'unchanged',
  worse: 'worse',
  waiting_for_data: 'waiting for data',
} as const;

const span = (window: Window) => `${window.start} – ${window.end}`;

/** One rule's evidence in words. Search queries and quoted sentences are text, never markup. */
function Evidence({ signal }: { signal: Signal }) {
  switch (signal.rule) {
    case 'clicks_below_best':
      return (
        <>
          Clicks {signal.current.clicks} in {span(signal.current.window)}, {signal.dropPercent}%
          below the best 28 days since publication ({signal.best.clicks} in{' '}
          {span(signal.best.window)}).
        </>
      );
    case 'clicks_below_last_year':
      return (
        <>
          Clicks {signal.current.clicks} in {span(signal.current.window)}, {signal.dropPercent}%
          below the same 28 days a year before ({signal.yearBefore.clicks} in{' '}
          {span(signal.yearBefore.window)}).
        </>
      );
    case 'position_worsened':
      return (
        <>
          Average position worse ({span(signal.before)} → {span(signal.now)}):{' '}
          {signal.queries.map((query, index) => (
            <span key={query.query}>
              {index > 0 && ', '}
              <q>{query.query}</q> {query.before} → {query.now}
            </span>
          ))}
          .
        </>
      );
    case 'query_lost':
      return (
        <>
          No clicks any more in {span(signal.now)} from:{' '}
          {signal.queries.map((query, index) => (
            <span key={query.query}>
              {index > 0 && ', '}
              <q>{query.query}</q> ({query.clicksBefore} clicks in {span(signal.before)})
            </span>
          ))}
          .
        </>
      );
    case 'dated_facts':
      return (
        <>
          Published {signal.ageMonths} months ago, with dated facts:
          <ul>
            {signal.sentences.map((sentence) => (
              <li key={sentence}>
                <q>{sentence}</q>
              </li>
            ))}
          </ul>
        </>
      );
  }
}

export function DecayVerdict({ finding }: { finding: DecayFinding }) {
  return (
    <>
      {VERDICTS[finding.verdict]}
      {finding.severity !== 'none' && ` (${finding.severity})`}
    </>
  );
}

export function DecaySignals({ finding }: { finding: DecayFinding }) {
  if (finding.signals.length === 0) return null;
  return (
    <ul className="decay-signals">
      {finding.signals.map((signal) => (
        <li key={signal.rule}>
          <Evidence signal={signal} />
        </li>
      ))}
    </ul>
  );
}

export function RefreshResult({ refresh }: { refresh: DecayFinding['refresh'] }) {
  if (!refresh) return null;
  return (
    <p>
      Refresh merged {refresh.mergedAt.slice(0, 10)}: {OUTCOMES[refresh.outcome]}
      {refresh.after &&
        ` (${refresh.before.clicks} clicks in the 28 days before, ${refresh.after.clicks} in the 28 after)`}
      .
    </p>
  );
}

/** The article's decay finding, beside its search chart. */
export function DecayPanel({ finding }: { finding: DecayFinding | null }) {
  return (
    <section aria-labelledby="decay-heading">
      <h2 id="decay-heading">Decay</h2>
      {finding === null ? (
        <p>Not judged yet: the next search sync judges published articles.</p>
      ) : (
        <>
          <p>
            <DecayVerdict finding={finding} />, judged {finding.assessedAt.slice(0, 10)} on the
            figures up to {finding.history.to}.
          </p>
          <DecaySignals finding={finding} />
          <RefreshResult refresh={finding.refresh} />
        </>
      )}
    </section>
  );
}
