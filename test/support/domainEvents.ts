import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { accountStream } from '../../src/domain/accounts/decide.ts';
import { articleStream } from '../../src/domain/articles/decide.ts';
import { handleCommand, type CommandContext } from '../../src/eventstore/handleCommand.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { projectStream } from '../../src/domain/projects/decide.ts';
import { DEFAULT_SETTINGS } from '../../src/domain/projects/settings.ts';
import { topicStream } from '../../src/domain/topics/decide.ts';

/** Appends a realistic life of an account, a project, its topics and an article through the real decide functions. */
export async function appendSampleHistory(store: EventStore, seed: string): Promise<void> {
  const accountId = accountIdForName(`account-${seed}`);
  let step = 0;
  const ctx = (): CommandContext => ({
    accountId,
    actor: { kind: 'system', worker: 'test' },
    correlationId: `cor-${seed}`,
    requestId: `req-${seed}`,
    commandId: `${seed}:${step++}`,
  });
  const at = '2026-11-01T10:00:00.000Z';
  const projectId = `prj_${seed.padStart(26, '0')}`;
  const topicId = `tpc_${seed.padStart(26, '0')}`;
  const articleId = `art_${seed.padStart(26, '0')}`;
  await handleCommand(
    store,
    accountStream,
    accountId,
    { type: 'EnsureAccount', accountId, name: `account-${seed}`, plan: 'pro', at },
    ctx(),
  );
  await handleCommand(
    store,
    projectStream,
    projectId,
    {
      type: 'CreateProject',
      projectId,
      accountId,
      name: `Site ${seed}`,
      websiteUrl: 'https://example.com',
      blogUrl: null,
      sitemapUrl: null,
      settings: DEFAULT_SETTINGS,
      crawlId: `crl-${seed}`,
      at,
    },
    ctx(),
  );
  await handleCommand(
    store,
    projectStream,
    projectId,
    { type: 'UpdateProject', name: `Renamed ${seed}`, paused: true, at },
    ctx(),
  );
  await handleCommand(
    store,
    topicStream,
    topicId,
    {
      type: 'CreateTopic',
      topic: {
        topicId,
        projectId,
        title: `Topic ${seed}`,
        keyword: 'k',
        brief: null,
        status: 'approved',
        scheduledFor: null,
        priority: 1,
        source: 'api',
        runId: null,
        rationale: null,
        at,
      },
    },
    ctx(),
  );
  await handleCommand(store, topicStream, topicId, { type: 'UpdateTopic', priority: 5, at }, ctx());
  await handleCommand(
    store,
    topicStream,
    topicId,
    { type: 'MarkTopicWritten', articleId, trigger: 'api', at },
    ctx(),
  );
  await handleCommand(
    store,
    articleStream,
    articleId,
    {
      type: 'QueueArticle',
      articleId,
      topicId,
      projectId,
      title: `Topic ${seed}`,
      keyword: 'k',
      brief: null,
      trigger: 'api',
      at,
    },
    ctx(),
  );
  await handleCommand(store, articleStream, articleId, { type: 'StartResearch', at }, ctx());
  await handleCommand(
    store,
    articleStream,
    articleId,
    { type: 'FailStep', step: 'researching', reason: 'site down', at },
    ctx(),
  );
  await handleCommand(store, articleStream, articleId, { type: 'RetryArticle', at }, ctx());
}
