import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { DuplicateEventIdError } from '../../src/eventstore/appendPlan.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { describeEventStoreContract } from './contract.ts';
import { appendWithRetry, metadata, newEvent, rejectionOf } from './events.ts';

const dir = mkdtempSync(join(tmpdir(), 'inkstream-eventstore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshFile = () => join(dir, `${randomUUID()}.sqlite`);

describeEventStoreContract('sqlite', async () => openSqliteEventStore(freshFile()), {
  embedded: true,
});

describe('sqlite event store', () => {
  test('appends sharing a commit land in one transaction at the end of the turn; a member that fails halfway leaves none of its events', async () => {
    const store = openSqliteEventStore(freshFile());
    const file = store.path;
    const notified: bigint[] = [];
    store.onAppend((position) => notified.push(position));
    const taken = newEvent('Taken');
    await store.append('t-taken', [taken], 'no_stream');
    const other = new DatabaseSync(file, { readOnly: true });
    const count = () => Number(other.prepare('SELECT count(*) AS n FROM events').get()!.n);

    const share = { shareCommit: true };
    const settled = Promise.allSettled([
      store.append('t-1', [newEvent('One')], 'no_stream', share),
      store.append('t-2', [newEvent('Two'), taken], 'no_stream', share), // its second event's id is stored already
      store.append('t-3', [newEvent('Three'), newEvent('Four')], 'no_stream', share),
    ]);
    expect(count()).toBe(1); // nothing written before the turn ends
    const [one, two, three] = await settled;

    expect(one).toMatchObject({ status: 'fulfilled', value: { position: 1n } });
    expect((two as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect(three).toMatchObject({ status: 'fulfilled', value: { nextRevision: 1n, position: 3n } });
    expect(count()).toBe(4); // gapless: t-2's first event was undone with the rest of t-2
    await expect(store.readStream('t-2')).rejects.toThrow('not found');
    expect(notified).toEqual([0n, 3n]); // one notification for the whole group
    other.close();
    await store.close();
  });

  test('listeners get the appended events and the position they follow, for a group commit and for an append behind another connection', async () => {
    const store = openSqliteEventStore(freshFile());
    const heard: { previous?: bigint; positions: bigint[] }[] = [];
    store.onAppend((_position, appended, previous) =>
      heard.push({ previous, positions: (appended?.() ?? []).map((e) => e.position) }),
    );
    await store.append('t-a', [newEvent('A')], 'no_stream');
    const share = { shareCommit: true };
    await Promise.all([
      store.append('t-b', [newEvent('B1'), newEvent('B2')], 'no_stream', share),
      store.append('t-c', [newEvent('C')], 'no_stream', share),
    ]);
    const other = openSqliteEventStore(store.path);
    await other.append('t-d', [newEvent('D')], 'no_stream'); // unheard here
    await store.append('t-e', [newEvent('E')], 'no_stream');
    expect(heard).toEqual([
      { previous: -1n, positions: [0n] },
      { previous: 0n, positions: [1n, 2n, 3n] },
      { previous: 4n, positions: [5n] }, // not 3n: another connection's event came in between
    ]);
    await other.close();
    await store.close();
  });

  test('createdAt comes from the injected clock', async () => {
    const store = openSqliteEventStore(freshFile(), {
      clock: manualClock('2030-05-06T07:08:09.010Z'),
    });
    await store.append('project-1', [newEvent('A')], 'no_stream');
    expect((await store.readStream('project-1'))[0].createdAt).toBe('2030-05-06T07:08:09.010Z');
    await store.close();
  });

  test('the log is still there after closing and reopening the file', async () => {
    const file = freshFile();
    const first = openSqliteEventStore(file);
    const written = newEvent('A', { n: 1 });
    await first.append('project-1', [written], 'no_stream');
    await first.close();
    const reopened = openSqliteEventStore(file);
    expect(await reopened.readStream('project-1')).toMatchObject([
      { id: written.id, data: { n: 1 }, revision: 0n, position: 0n },
    ]);
    await reopened.close();
  });

  test('positions and revisions past 2^53 keep every digit', async () => {
    const file = freshFile();
    const store = openSqliteEventStore(file);
    const beyond = 2n ** 53n + 1n;
    const raw = new DatabaseSync(file);
    raw
      .prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        beyond,
        randomUUID(),
        'project-1',
        'project',
        beyond,
        'Seeded',
        '{}',
        JSON.stringify(metadata()),
        '2026-01-01T00:00:00.000Z',
      );
    raw.close();

    expect(await store.append('project-1', [newEvent('Next')], beyond)).toEqual({
      nextRevision: beyond + 1n,
      position: beyond + 1n,
    });
    expect(await store.readAll({ after: beyond })).toMatchObject([
      { type: 'Next', position: beyond + 1n, revision: beyond + 1n },
    ]);
    expect(await store.readStream('project-1', { fromRevision: beyond + 1n })).toHaveLength(1);
    expect(await store.headPosition()).toBe(9007199254740994n);
    await store.close();
  });
});

describe('sqlite event store shared by two connections on one file', () => {
  test('the second connection sees the first one’s appends, is refused on a stale revision and continues the positions', async () => {
    const file = freshFile();
    const server = openSqliteEventStore(file);
    const cli = openSqliteEventStore(file);
    await server.append('project-1', [newEvent('Created')], 'no_stream');
    expect(
      await rejectionOf(cli.append('project-1', [newEvent('Renamed')], 'no_stream')),
    ).toMatchObject({ actual: 0n });
    expect(await cli.append('project-1', [newEvent('Renamed')], 0n)).toEqual({
      nextRevision: 1n,
      position: 1n,
    });
    expect(await server.append('topic-1', [newEvent('Proposed')], 'no_stream')).toEqual({
      nextRevision: 0n,
      position: 2n,
    });
    expect((await server.readAll()).map((e) => e.type)).toEqual(['Created', 'Renamed', 'Proposed']);
    await Promise.all([server.close(), cli.close()]);
  });

  test('listeners run after the commit: another connection already reads the event', async () => {
    const file = freshFile();
    const store = openSqliteEventStore(file);
    const other = new DatabaseSync(file, { readOnly: true });
    const countSeen: unknown[] = [];
    store.onAppend(() =>
      countSeen.push(other.prepare('SELECT count(*) AS n FROM events').get()?.n),
    );
    await store.append('project-1', [newEvent('A'), newEvent('B')], 'no_stream');
    expect(countSeen).toEqual([2]);
    other.close();
    await store.close();
  });

  test('another process appending to the same streams at the same time loses nothing and positions stay gapless', async () => {
    const file = freshFile();
    const store = openSqliteEventStore(file);
    const streams = ['article-1', 'article-2', 'article-3'];
    const perWriter = 400;
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, 'sqliteChildWriter.ts'), file, String(perWriter), ...streams],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines: string[] = [];
    child.stdout
      .setEncoding('utf8')
      .on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
    const exited = once(child, 'exit');
    while (!lines.includes('ready')) await once(child.stdout, 'data');
    child.stdin.write('go\n');
    for (let i = 0; i < perWriter; i++)
      await appendWithRetry(store, streams[i % streams.length], 'FromParent', { i });
    const [code] = await exited;
    expect(code).toBe(0);

    const all = await store.readAll({ maxCount: 10_000 });
    expect(all.map((e) => e.position)).toEqual(all.map((_, i) => BigInt(i)));
    for (const type of ['FromParent', 'FromChild']) {
      expect(
        all
          .filter((e) => e.type === type)
          .map((e) => e.data.i)
          .sort((a, b) => Number(a) - Number(b)),
      ).toEqual(Array.from({ length: perWriter }, (_, i) => i));
    }
    for (const stream of streams) {
      const revisions = (await store.readStream(stream)).map((e) => e.revision);
      expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
    }
    await store.close();
  });
});
