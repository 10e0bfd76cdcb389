/**
 * A child process for crash tests: appends commands and projects them, until it is killed.
 * MODE=load: append forever (prints "ready" once running). MODE=drain: project up to the head and exit.
 */
import { join } from 'node:path';
import { pino } from 'pino';
import { allProjections } from '../../projections/index.ts';
import { projectionConsumer } from '../../src/consumers/projectionConsumer.ts';
import { startConsumer } from '../../src/consumers/runner.ts';
import { handleCommand } from '../../src/eventstore/handleCommand.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { projectStream } from '../../src/projects/decide.ts';
import { DEFAULT_SETTINGS } from '../../src/projects/settings.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import { revisionAudit } from './revisionAudit.ts';

const file = join(process.env.DATA_DIR!, 'inkstream.sqlite');
const store = openSqliteEventStore(file);
const readStore = openSqliteReadStore(file);
const projections = [...allProjections, revisionAudit];
await readStore.ensureCollections(projections.map((p) => ({ name: p.collection, indexes: p.indexes })));
const consumer = await startConsumer(projectionConsumer(projections, readStore), { store, readStore, logger: pino({ level: 'silent' }), pollIntervalMs: 50 });

if (process.env.MODE === 'drain') {
  while (!(await consumer.waitFor(await store.headPosition(), 5_000)));
  await consumer.stop();
  process.exit(0);
}

const run = process.pid.toString(36);
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const projectId = `prj_${`${run}x${i % 50}`.padStart(26, '0')}`;
  const context = { accountId: 'acc_crash', actor: { kind: 'system' as const, worker: 'crash' }, correlationId: run, requestId: run, commandId: `${run}:${i}` };
  const at = new Date().toISOString();
  if (i < 50) {
    await handleCommand(store, projectStream, projectId, {
      type: 'CreateProject', projectId, accountId: 'acc_crash', name: `p${i}`, websiteUrl: 'https://example.com', blogUrl: null, sitemapUrl: null,
      settings: DEFAULT_SETTINGS, crawlId: `crl${i}`, at,
    }, context);
  } else {
    await handleCommand(store, projectStream, projectId, { type: 'UpdateProject', name: `p${i}`, at }, context);
  }
}
