import type { EventTypeInfo } from './types.ts';

/** Every event type with what it means and an example delivery body (shown as text). */
export function EventCatalogue({ eventTypes }: { eventTypes: readonly EventTypeInfo[] }) {
  return (
    <section aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">Event catalogue</h2>
      {eventTypes.map((entry) => (
        <details key={entry.type} className="event-type">
          <summary>
            <code>{entry.type}</code>
            {entry.subscribable ? '' : ' (sent only as a test)'}
          </summary>
          <p>{entry.description}</p>
          <pre tabIndex={0} aria-label={`Example ${entry.type} delivery`}>
            {JSON.stringify(entry.example, null, 2)}
          </pre>
        </details>
      ))}
    </section>
  );
}
