/**
 * What the form of event ids costs an append on the embedded store: new entities' first events
 * (as POST /projects/:id/topics appends them), committed in groups of 30 into a log of 200,000
 * events, once with ids that are all hash and once with deriveEventId's (the entity's time first).
 * The two alternate over the rounds on fresh files; each figure is the median.
 *   npx node bench/eventIds.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createIdGenerator, deriveEventId } from '../src/core/ids.ts';
import type { EventMetadata } from '../src/eventstore/port.ts';
import { openSqliteEventStore } from '../src/eventstore/sqlite.ts';

const LOG_SIZE = 200_000;
const GROUP = 30;
const MEASURED_GROUPS = 1_000;
const ROUNDS = 3;

const metadata: EventMetadata = {
  accountId: 'acc_01jb2c3d4e5f6g7h8j9k0m1n2p',
  actor: { kind: 'api_key', keyId: 'key_01jb2c3d4e5f6g7h8j9k0m1n2p' },
  correlationId: 'req_01jb2c3d4e5f6g7h8j9k0m1n2p',
  causationId: 'req_01jb2c3d4e5f6g7h8j9k0m1n2p',
  requestId: 'req_01jb2c3d4e5f6g7h8j9k0m1n2p',
};

/** The previous form: every bit from the hash. */
function hashedEventId(stream: string, commandId: string, index: number): string {
  const hex = createHash('sha256')
    .update(`${commandId}\u0000${stream}\u0000${index}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function appendsPerSecond(idOf: typeof deriveEventId): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ink-bench-ids-'));
  const store = openSqliteEventStore(join(dir, 'events.sqlite'));
  const ids = createIdGenerator();
  let n = 0;
  const group = () =>
    Promise.all(
      Array.from({ length: GROUP }, () => {
        const topicId = ids.next('tpc');
        const stream = `topic-${topicId}`;
        const data = {
          topicId,
          projectId: 'prj_01jb2c3d4e5f6g7h8j9k0m1n2p',
          title: `Bench ${n}`,
          status: 'approved',
          priority: 50,
          at: new Date().toISOString(),
        };
        return store.append(
          stream,
          [{ id: idOf(stream, `req_${n++}:main`, 0), type: 'TopicCreated', data, metadata }],
          'no_stream',
          { shareCommit: true },
        );
      }),
    );
  for (let i = 0; i < LOG_SIZE / GROUP; i++) await group();
  const start = performance.now();
  for (let i = 0; i < MEASURED_GROUPS; i++) await group();
  const perSecond = Math.round((MEASURED_GROUPS * GROUP) / ((performance.now() - start) / 1000));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return perSecond;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const hashed: number[] = [];
const entityTime: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  hashed.push(await appendsPerSecond(hashedEventId));
  entityTime.push(await appendsPerSecond(deriveEventId));
}
console.log(
  `appends/s, groups of ${GROUP} into a log of ${LOG_SIZE}: hashed ids ${median(hashed)} (rounds ${hashed.join(', ')})` +
    `   entity-time ids ${median(entityTime)} (rounds ${entityTime.join(', ')})   ratio ${(median(entityTime) / median(hashed)).toFixed(2)}`,
);
