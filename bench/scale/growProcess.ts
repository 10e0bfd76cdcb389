/**
 * Grows the scale bench's store in a process of its own (growStore.ts: growStoreApart), so the
 * process that then measures the reads is the one that measured the near-empty store, not one
 * whose heap just held a year of events: its own garbage collections would be in the grown
 * figures and not in the near-empty ones. Arguments: FILE SIZE END_MS; the retention figures go back over IPC.
 */
import { growStore } from './growStore.ts';

const [file, size, endMs] = process.argv.slice(2);
const retention = await growStore(file, Number(size), Number(endMs), (head) =>
  process.stderr.write(`\rgrowing: ${head + 1n}/${size} events`),
);
process.stderr.write('\n');
process.send!({ retention }, () => process.exit(0));
