import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { DeliveryStats } from './types.ts';

/**
 * The success rate per bucket as a line (uplot; loaded lazily with this module). Buckets without
 * attempts have no rate and leave a gap. The figures themselves are in the table beside it.
 */
export default function SuccessChart({ stats }: { stats: DeliveryStats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const times = stats.buckets.map((bucket) => Date.parse(bucket.at) / 1000);
    const rates = stats.buckets.map((bucket) => {
      const total = bucket.succeeded + bucket.failed;
      return total === 0 ? null : Math.round((bucket.succeeded / total) * 1000) / 10;
    });
    const plot = new uPlot(
      {
        width: Math.max(280, Math.min(element.clientWidth || 640, 900)),
        height: 220,
        scales: { y: { range: [0, 100] } },
        series: [
          {},
          { label: 'Success rate (%)', stroke: '#1f7a3a', width: 2, points: { show: true } },
        ],
        axes: [{}, { label: '%' }],
      },
      [times, rates],
      element,
    );
    return () => plot.destroy();
  }, [stats]);
  return (
    <div
      ref={box}
      className="chart"
      role="img"
      aria-label={`Success rate per ${stats.bucketHours === 1 ? 'hour' : `${stats.bucketHours} hours`}; the figures are in the table below`}
    />
  );
}
