import { lazy, Suspense, useState } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';

const SuccessChart = lazy(() => import('./SuccessChart.tsx'));

type Period = '24h' | '7d';
const percent = (succeeded: number, failed: number) =>
  succeeded + failed === 0 ? '–' : `${Math.round((succeeded / (succeeded + failed)) * 100)}%`;

/** The endpoint's delivery attempts over the last 24 hours or 7 days: a chart, a summary sentence and the figures as a table. */
export function StatsPanel({ endpointId, refreshKey }: { endpointId: string; refreshKey: number }) {
  const [period, setPeriod] = useState<Period>('24h');
  const stats = useResource(
    () =>
      unwrap(
        api.GET('/webhooks/{id}/stats', {
          params: { path: { id: endpointId }, query: { window: period } },
        }),
      ),
    `${endpointId}:${period}:${refreshKey}`,
  );
  const data = stats.data?.stats;
  const label = period === '24h' ? 'last 24 hours' : 'last 7 days';
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title">Success rate</h2>
      <label className="inline-label">
        Period
        <select value={period} onChange={(event) => setPeriod(event.target.value as Period)}>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
        </select>
      </label>
      <ErrorNote error={stats.error} />
      {data && (
        <>
          <p data-testid="stats-summary">
            {data.totals.succeeded + data.totals.failed === 0
              ? `No delivery attempts in the ${label}.`
              : `${label[0].toUpperCase()}${label.slice(1)}: ${data.totals.succeeded} of ${data.totals.succeeded + data.totals.failed} attempts succeeded (${percent(data.totals.succeeded, data.totals.failed)}).`}
          </p>
          <Suspense fallback={<p>Loading the chart…</p>}>
            <SuccessChart stats={data} />
          </Suspense>
          <details>
            <summary>Figures as a table</summary>
            <TableBox label="Delivery statistics">
              <table>
                <caption>
                  Attempts per {data.bucketHours === 1 ? 'hour' : `${data.bucketHours} hours`},{' '}
                  {label}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">From</th>
                    <th scope="col">Succeeded</th>
                    <th scope="col">Failed</th>
                    <th scope="col">Success rate</th>
                  </tr>
                </thead>
                <tbody>
                  {data.buckets.map((bucket) => (
                    <tr key={bucket.at}>
                      <td>
                        <Time at={bucket.at} absolute />
                      </td>
                      <td>{bucket.succeeded}</td>
                      <td>{bucket.failed}</td>
                      <td>{percent(bucket.succeeded, bucket.failed)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          </details>
        </>
      )}
    </section>
  );
}
