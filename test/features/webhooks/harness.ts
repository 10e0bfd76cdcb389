import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { articleStream, type ArticleCommand } from '../../../src/domain/articles/decide.ts';
import type { CommandResult } from '../../../src/eventstore/handleCommand.ts';
import type { TestInkstream } from '../../support/inkstream.ts';
import type { Receiver } from '../../support/webhookReceiver.ts';

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Waits (bounded, polling) until `check` returns something truthy, and returns it. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Registers the receiver as an endpoint of the key's account and gives it the secret. */
export async function register(
  app: TestInkstream,
  receiver: Receiver,
  options: { key?: string; events?: string[] } = {},
): Promise<string> {
  const response = await app.api(options.key).post('/webhooks', {
    url: receiver.url,
    ...(options.events ? { events: options.events } : {}),
  });
  if (response.status !== 201)
    throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  receiver.secret = response.body.webhook.secret;
  return response.body.webhook.id;
}

let articles = 0;

/** What the pipeline workers do: article commands under the account, as the system. */
export async function articleCommand(
  app: TestInkstream,
  account: string,
  articleId: string,
  command: ArticleCommand,
): Promise<CommandResult<unknown>> {
  const accountId = accountIdForName(account);
  const commandId = `test:${articleId}:${command.type}:${++articles}`;
  return app.platform.commands.execute(articleStream, articleId, command, {
    accountId,
    actor: { kind: 'system', worker: 'test' },
    correlationId: commandId,
    requestId: commandId,
    commandId,
  });
}

export async function queueArticle(
  app: TestInkstream,
  account = 'test',
  title = 'Webhooks that never lose an event',
): Promise<string> {
  const articleId = app.platform.ids.next('art');
  await articleCommand(app, account, articleId, {
    type: 'QueueArticle',
    articleId,
    topicId: app.platform.ids.next('tpc'),
    projectId: app.platform.ids.next('prj'),
    title,
    keyword: null,
    brief: null,
    trigger: 'api',
    at: app.platform.clock.now(),
  });
  return articleId;
}

export const envelopes = (receiver: Receiver) =>
  receiver.received.map((request) => JSON.parse(request.body.toString('utf8')));
