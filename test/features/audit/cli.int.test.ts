import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite.ts';
import { appendSampleHistory } from '../../support/domainEvents.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../../bin/inkstream.js');
const cli = (dataDir: string, ...args: string[]) =>
  run(process.execPath, [CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  });

test('events export streams the whole log as NDJSON whose count and checksum match the log', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-export-'));
  const store = openSqliteEventStore(join(dataDir, 'inkstream.sqlite'));
  for (const seed of ['a', 'b', 'c', 'd']) await appendSampleHistory(store, seed);
  const log = await store.readAll({ maxCount: 100_000 });

  const { stdout, stderr } = await cli(dataDir, 'events', 'export');
  const lines = stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(log.length);
  expect(lines.map((line) => JSON.parse(line).id)).toEqual(log.map((event) => event.id));
  expect(JSON.parse(lines[0])).toMatchObject({
    position: '0',
    revision: '0',
    stream: log[0].stream,
  });
  expect(stderr).toContain(
    `exported ${log.length} events, sha256 ${createHash('sha256').update(stdout).digest('hex')}`,
  );

  const oneStream = await cli(dataDir, 'events', 'export', '--stream', log[1].stream);
  expect(
    oneStream.stdout
      .trimEnd()
      .split('\n')
      .every((line) => JSON.parse(line).stream === log[1].stream),
  ).toBe(true);
  const fromPosition = await cli(dataDir, 'events', 'export', '--from', '10');
  expect(fromPosition.stdout.trimEnd().split('\n')).toHaveLength(log.length - 10);
}, 60_000); // three CLI processes, each starting cold

test('events verify reports a healthy log, and history prints a readable timeline', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-verify-'));
  const store = openSqliteEventStore(join(dataDir, 'inkstream.sqlite'));
  await appendSampleHistory(store, 'v');
  const verify = await cli(dataDir, 'events', 'verify');
  expect(verify.stdout).toContain(
    'OK: positions in order and gapless, revisions contiguous, no duplicate ids.',
  );

  const articleId = `art_${'v'.padStart(26, '0')}`;
  const history = await cli(dataDir, 'history', 'article', articleId);
  const lines = history.stdout.trimEnd().split('\n');
  expect(lines.map((line) => line.split(/\s+/)[3])).toEqual([
    'ArticleQueued',
    'ArticleResearchStarted',
    'ArticleFailed',
    'ArticleRetried',
  ]);
  expect(history.stdout).toContain('reason="site down"');
  const json = JSON.parse((await cli(dataDir, 'history', 'article', articleId, '--json')).stdout);
  expect(json[2]).toMatchObject({
    type: 'ArticleFailed',
    actor: { kind: 'system', worker: 'test' },
  });
}, 60_000); // three CLI processes, each starting cold
