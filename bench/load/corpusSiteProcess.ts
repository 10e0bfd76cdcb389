/**
 * The bench's generated site in its own process (so its memory and CPU are not the crawler's):
 * started with the page count and delay in argv, it sends { origin } and then answers
 * { type: 'fullGets' } with the 200 counts per path and { type: 'change', indexes } by changing
 * those pages; { type: 'reset' } clears the request log.
 */
import { startCorpusSite } from '../../test/support/corpusSite.ts';

const pages = Number(process.argv[2] ?? 5000);
const delayMs = Number(process.argv[3] ?? 50);
const site = await startCorpusSite({ pages, delayMs });
process.send!({ origin: site.origin });
process.on('message', (message: { type: string; indexes?: number[] }) => {
  if (message.type === 'fullGets')
    process.send!({
      fullGets: Object.fromEntries(site.fullGets()),
      requests: site.log.length,
      statuses: site.log.reduce<Record<number, number>>((counts, entry) => {
        counts[entry.status] = (counts[entry.status] ?? 0) + 1;
        return counts;
      }, {}),
    });
  else if (message.type === 'change') {
    site.change(message.indexes ?? []);
    process.send!({ changed: true });
  } else if (message.type === 'reset') {
    site.log.length = 0;
    process.send!({ reset: true });
  } else if (message.type === 'stop') void site.close().then(() => process.exit(0));
});
