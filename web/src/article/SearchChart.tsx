import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { TableBox } from '../ui/TableBox.tsx';

type Point = components['schemas']['SearchMetricsSeries']['points'][number];

const CHARTS = [
  {
    title: 'Clicks and impressions',
    series: [
      {
        label: 'Clicks',
        stroke: '#2f6fde',
        value: (point: Point) => point.clicks,
        scale: 'clicks',
      },
      {
        label: 'Impressions',
        stroke: '#b26b00',
        value: (point: Point) => point.impressions,
        scale: 'impressions',
      },
    ],
  },
  {
    title: 'CTR and average position',
    series: [
      {
        label: 'CTR %',
        stroke: '#1d7a46',
        value: (point: Point) => Math.round(point.ctr * 1000) / 10,
        scale: 'ctr',
      },
      {
        label: 'Position',
        stroke: '#a4121b',
        value: (point: Point) => point.position,
        scale: 'position',
      },
    ],
  },
] as const;

/**
 * The article's Search Console figures over time (one point per sync, each the 28 days before it),
 * drawn by uPlot, with the same figures as a table for screen readers and keyboards.
 */
export function SearchChart({ articleId }: { articleId: string }) {
  const series = useResource(
    async () =>
      (
        await unwrap(
          api.GET('/articles/{id}/search-metrics', { params: { path: { id: articleId } } }),
        )
      ).searchMetrics,
    articleId,
  );
  const points = series.data?.points ?? [];
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Search performance</h2>
      <ErrorNote error={series.error} />
      {series.data && points.length === 0 && (
        <p>No sync has figures for this article yet (only published articles are synced).</p>
      )}
      {points.length > 0 && (
        <>
          {CHARTS.map((chart) => (
            <Chart key={chart.title} title={chart.title} points={points} series={chart.series} />
          ))}
          <details>
            <summary>The figures as a table</summary>
            <TableBox label="28-day totals at each sync">
              <table>
                <caption>28-day totals at each sync</caption>
                <thead>
                  <tr>
                    <th scope="col">Period end</th>
                    <th scope="col">Clicks</th>
                    <th scope="col">Impressions</th>
                    <th scope="col">CTR</th>
                    <th scope="col">Position</th>
                  </tr>
                </thead>
                <tbody>
                  {points.map((point) => (
                    <tr key={point.syncedAt}>
                      <td>{point.periodEnd}</td>
                      <td>{point.clicks}</td>
                      <td>{point.impressions}</td>
                      <td>{(point.ctr * 100).toFixed(1)} %</td>
                      <td>{point.position === null ? '–' : point.position.toFixed(1)}</td>
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

function Chart({
  title,
  points,
  series,
}: {
  title: string;
  points: readonly Point[];
  series: (typeof CHARTS)[number]['series'];
}) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!target.current) return;
    const xs = points.map((point) => Date.parse(`${point.periodEnd}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [
      xs,
      ...series.map((line) => points.map((point) => line.value(point))),
    ];
    const width = Math.max(280, Math.min(900, target.current.clientWidth || 600));
    const plot = new uPlot(
      {
        width,
        height: 220,
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.stroke,
            width: 2,
            scale: line.scale,
            points: { show: true },
          })),
        ],
        axes: [
          {},
          { scale: series[0].scale, label: series[0].label },
          { scale: series[1].scale, label: series[1].label, side: 1, grid: { show: false } },
        ],
        scales: { position: { dir: -1 } },
      },
      data,
      target.current,
    );
    return () => plot.destroy();
  }, [points, series]);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div ref={target} />
    </figure>
  );
}
