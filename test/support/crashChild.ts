/**
 * A child process for crash tests: appends commands and projects them, until it is killed.
 * MODE=load: eight concurrent writers append forever, so their commands share commits (prints
 * "ready" once running, then "ack <event id>" for every event whose append was acknowledged).
 * MODE=topics: the same with topics in six projects, created, rejected and approved again, the
 * same topics in every run (the board totals' tallies move with each).
 * MODE=drain: project up to the head and exit.
 */
import { join } from 'node:path';
import { pino } from 'pino';
import { allProjections } from '../../src/app/features.ts';
import { projectionConsumer } from '../../src/consumers/projectionConsumer.ts';
import { startConsumer } from '../../src/consumers/runner.ts';
import { handleCommand } from '../../src/eventstore/handleCommand.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { projectStream } from '../../src/domain/projects/decide.ts';
import { DEFAULT_SETTINGS } from '../../src/domain/projects/settings.ts';
import { topicStream } from '../../src/domain/topics/decide.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import { revisionAudit } from './revisionAudit.ts';

const file = join(process.env.DATA_DIR!, 'inkstream.sqlite');
const store = openSqliteEventStore(file);
const readStore = openSqliteReadStore(file);
const projections = [...allProjections, revisionAudit];
await readStore.ensureCollections(
  projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
);
const consumer = await startConsumer(projectionConsumer(projections, readStore, store), {
  store,
  readStore,
  logger: pino({ level: 'silent' }),
  pollIntervalMs: 50,
});

if (process.env.MODE === 'drain') {
  while (!(await consumer.waitFor(await store.headPosition(), 5_000)));
  await consumer.stop();
  process.exit(0);
}

const run = process.pid.toString(36);
const WRITERS = 8;
const PROJECTS = 48; // a multiple of WRITERS: each project has one writer, so writers never conflict

async function writer(first: number): Promise<never> {
  for (let i = first; ; i += WRITERS) {
    const projectId = `prj_${`${run}x${i % PROJECTS}`.padStart(26, '0')}`;
    const context = {
      accountId: 'acc_crash',
      actor: { kind: 'system' as const, worker: 'crash' },
      correlationId: run,
      requestId: run,
      commandId: `${run}:${i}`,
    };
    const at = new Date().toISOString();
    const result =
      i < PROJECTS
        ? await handleCommand(
            store,
            projectStream,
            projectId,
            {
              type: 'CreateProject',
              projectId,
              accountId: 'acc_crash',
              name: `p${i}`,
              websiteUrl: 'https://example.com',
              blogUrl: null,
              sitemapUrl: null,
              settings: DEFAULT_SETTINGS,
              crawlId: `crl${i}`,
              at,
            },
            context,
          )
        : await handleCommand(
            store,
            projectStream,
            projectId,
            { type: 'UpdateProject', name: `p${i}`, at },
            context,
          );
    // Written to a pipe, which is synchronous on Linux: printed means acknowledged and committed.
    process.stdout.write(result.events.map((event) => `ack ${event.id}\n`).join(''));
  }
}

/**
 * Each writer owns its topics, so writers never conflict, and walks the same ones in every run:
 * every third step creates the next (a no-op where an earlier run did), the others set an earlier
 * one approved or rejected, so a run moves topics that earlier runs projected.
 */
async function topicWriter(first: number): Promise<never> {
  for (let i = 0; ; i++) {
    const context = {
      accountId: 'acc_crash',
      actor: { kind: 'system' as const, worker: 'crash' },
      correlationId: run,
      requestId: run,
      commandId: `${run}:${first}:${i}`,
    };
    const at = new Date().toISOString();
    const made = Math.floor(i / 3);
    const topic = i % 3 === 0 ? made : (i * 7) % (made + 1);
    const topicId = `tpc_${`crashw${first}n${topic}`.padStart(26, '0')}`;
    const result =
      i % 3 === 0
        ? await handleCommand(
            store,
            topicStream,
            topicId,
            {
              type: 'CreateTopic',
              topic: {
                topicId,
                projectId: `prj_${`crash${topic % 6}`.padStart(26, '0')}`,
                title: `t${topic}`,
                keyword: null,
                brief: null,
                status: 'approved',
                scheduledFor: null,
                priority: 50,
                source: 'api',
                runId: null,
                rationale: null,
                at,
              },
            },
            context,
          )
        : await handleCommand(
            store,
            topicStream,
            topicId,
            { type: 'UpdateTopic', status: (i + process.pid) % 2 ? 'rejected' : 'approved', at },
            context,
          );
    process.stdout.write(result.events.map((event) => `ack ${event.id}\n`).join(''));
  }
}

process.stdout.write('ready\n');
await Promise.all(
  Array.from({ length: WRITERS }, (_, first) =>
    (process.env.MODE === 'topics' ? topicWriter : writer)(first),
  ),
);
