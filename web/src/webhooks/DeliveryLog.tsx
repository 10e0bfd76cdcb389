import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import type { Delivery, EventTypeInfo } from './types.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';

const STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
type Status = (typeof STATUSES)[number];
type Filters = { status: Status | ''; type: string };
const PAGE = 25;
const REFRESH_MS = 3_000;
/** How much of a receiver's answer the table shows; the whole 2 KB kept is under "attempts". */
const SNIPPET = 120;

/**
 * An endpoint's delivery log, newest first, filtered by status and event type, a page at a time.
 * The first page refreshes itself while the page is open. A receiver's answer is shown as text
 * (React escapes it): it is the receiver's, never markup of ours.
 */
export function DeliveryLog({
  endpointId,
  catalogue,
  canWrite,
  enabled,
  refreshKey,
}: {
  endpointId: string;
  catalogue: readonly EventTypeInfo[];
  canWrite: boolean;
  enabled: boolean;
  refreshKey: number;
}) {
  const [filters, setFilters] = useState<Filters>({ status: '', type: '' });
  const [older, setOlder] = useState<{ items: Delivery[]; cursor: string | null }>({
    items: [],
    cursor: null,
  });
  const action = useAction();
  const load = (cursor?: string) =>
    unwrap(
      api.GET('/webhooks/{id}/deliveries', {
        params: {
          path: { id: endpointId },
          query: {
            limit: PAGE,
            ...(cursor ? { cursor } : {}),
            ...(filters.status ? { status: filters.status } : {}),
            ...(filters.type ? { type: filters.type as never } : {}),
          },
        },
      }),
    );
  const first = useResource(
    () => load(),
    `${endpointId}:${filters.status}:${filters.type}:${refreshKey}`,
  );
  useEffect(() => {
    setOlder({ items: [], cursor: null });
  }, [endpointId, filters.status, filters.type]);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void first.reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [first.reload]); // eslint-disable-line react-hooks/exhaustive-deps

  const nextCursor = older.items.length > 0 ? older.cursor : (first.data?.nextCursor ?? null);
  const showOlder = () =>
    action.run(async () => {
      if (!nextCursor) return;
      const page = await load(nextCursor);
      setOlder((current) => ({
        items: [...current.items, ...page.deliveries],
        cursor: page.nextCursor,
      }));
    });
  const redeliver = (delivery: Delivery) =>
    action.run(async () => {
      await unwrap(
        api.POST('/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: endpointId, deliveryId: delivery.id } },
        }),
      );
      await first.reload();
    });

  const rows = [...(first.data?.deliveries ?? []), ...older.items];
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      <form
        className="inline"
        aria-label="Filter deliveries"
        onSubmit={(event) => event.preventDefault()}
      >
        <label>
          Filter by status
          <select
            value={filters.status}
            onChange={(event) =>
              setFilters({ ...filters, status: event.target.value as Filters['status'] })
            }
          >
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          Filter by event type
          <select
            value={filters.type}
            onChange={(event) => setFilters({ ...filters, type: event.target.value })}
          >
            <option value="">Any type</option>
            {catalogue.map((entry) => (
              <option key={entry.type} value={entry.type}>
                {entry.type}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void first.reload()}>
          Refresh
        </button>
      </form>
      <ErrorNote error={first.error ?? action.error} />
      <TableBox label="Deliveries">
        <table>
          <caption>Deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Event type</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response code</th>
              <th scope="col">Latency</th>
              <th scope="col">Response body</th>
              <th scope="col">
                <span className="hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((delivery) => (
              <DeliveryRow
                key={delivery.id}
                delivery={delivery}
                canRedeliver={canWrite && enabled}
                onRedeliver={() => void redeliver(delivery)}
              />
            ))}
            {first.data && rows.length === 0 && (
              <tr>
                <td colSpan={8}>
                  No deliveries{filters.status || filters.type ? ' match these filters' : ' yet'}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </TableBox>
      {nextCursor && (
        <button type="button" onClick={() => void showOlder()}>
          Show older deliveries
        </button>
      )}
    </section>
  );
}

function DeliveryRow({
  delivery,
  canRedeliver,
  onRedeliver,
}: {
  delivery: Delivery;
  canRedeliver: boolean;
  onRedeliver(): void;
}) {
  const last = delivery.attempts.at(-1);
  const body = last?.responseBody ?? '';
  return (
    <tr data-testid="delivery-row">
      <td>
        <Time at={delivery.createdAt} />
      </td>
      <td>
        <code>{delivery.type}</code>
      </td>
      <td>
        <span className={`status status-${delivery.status}`}>{delivery.status}</span>
        {delivery.failureReason && <div>{delivery.failureReason}</div>}
      </td>
      <td>
        {delivery.attempts.length}
        {delivery.attempts.length > 0 && (
          <details>
            <summary>attempts</summary>
            <ol>
              {delivery.attempts.map((attempt, index) => (
                <li key={index}>
                  <Time at={attempt.at} absolute />: {attempt.statusCode ?? 'no answer'}
                  {attempt.latencyMs !== null && `, ${attempt.latencyMs} ms`}
                  {attempt.error && ` (${attempt.error})`}
                  {attempt.responseBody && <pre className="response">{attempt.responseBody}</pre>}
                </li>
              ))}
            </ol>
          </details>
        )}
      </td>
      <td data-testid="response-code">{last ? (last.statusCode ?? 'none') : '–'}</td>
      <td data-testid="latency">{last?.latencyMs != null ? `${last.latencyMs} ms` : '–'}</td>
      <td>
        <code className="response" data-testid="response-body">
          {body.length > SNIPPET ? `${body.slice(0, SNIPPET)}…` : body}
        </code>
      </td>
      <td>
        <button
          type="button"
          disabled={!canRedeliver}
          onClick={onRedeliver}
          aria-label={`Redeliver ${delivery.type} ${delivery.id}`}
        >
          Redeliver
        </button>
      </td>
    </tr>
  );
}
