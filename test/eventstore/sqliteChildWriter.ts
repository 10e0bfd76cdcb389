/**
 * A second process writing to the same SQLite file, for sqlite.int.test.ts:
 *   node sqliteChildWriter.ts <file> <count> <stream>...
 * Prints "ready" once open, waits for a line on stdin, then appends <count> events round-robin
 * over the streams with read-then-append-and-retry, and prints how many conflicts it met.
 */
import { once } from 'node:events';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { appendWithRetry } from './events.ts';

const [file, count, ...streams] = process.argv.slice(2);
const store = openSqliteEventStore(file);
process.stdout.write('ready\n');
await once(process.stdin, 'data');
let conflicts = 0;
for (let i = 0; i < Number(count); i++) {
  conflicts += await appendWithRetry(store, streams[i % streams.length], 'FromChild', { i });
}
await store.close();
process.stdout.write(`${JSON.stringify({ conflicts })}\n`);
process.exit(0);
