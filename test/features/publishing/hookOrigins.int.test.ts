import { afterAll, beforeAll, expect, test } from 'vitest';
import { postPublishHookSender } from '../../../src/features/publishing/hook/hookDelivery.ts';
import type { JobDoc } from '../../../src/features/publishing/jobs/jobs.ts';
import { integrationsStream } from '../../../src/domain/integrations/decide.ts';
import { loadStream } from '../../../src/eventstore/handleCommand.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool } from '../../support/webhookReceiver.ts';

/** Post-publish hook calls to one origin share its turns, like webhook deliveries; other origins do not wait. */
let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  app = await startInkstream({ env: { INKSTREAM_WEBHOOK_CONCURRENCY_PER_ORIGIN: '1' } });
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
});

type HookedProject = { projectId: string; accountId: string };

async function projectWithHook(url: string): Promise<HookedProject> {
  const { project } = (
    await app.api().post('/projects', { name: 'Hooked', websiteUrl: 'https://hooked.example' })
  ).body;
  expect(
    (await app.api().put(`/projects/${project.id}/integrations/post-publish-hook`, { url })).status,
  ).toBe(200);
  const { state } = await loadStream(app.platform.eventStore, integrationsStream, project.id);
  return { projectId: project.id, accountId: state.accountId! };
}

// The job names the project's own account: the hook's secret is sealed for that record.
const hookJob = ({ projectId, accountId }: HookedProject, n: number): JobDoc => ({
  id: `job_${n}`,
  kind: 'hook',
  accountId,
  projectId,
  articleId: `art_${n}`,
  cause: { eventId: `evt_${n}`, correlationId: `c${n}`, requestId: `r${n}` },
  revisionId: null,
  hook: {
    eventId: `evt_${n}`,
    body: JSON.stringify({ id: `evt_${n}`, type: 'article.published' }),
  },
  attempts: 0,
  due: '0',
  lastError: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
});

test('three projects whose hooks share a hanging origin get one call in flight there; a hook on another origin is answered meanwhile', async () => {
  const crowded = await receivers.start();
  crowded.behave(() => 'hang');
  const other = await receivers.start();
  const crowdedProjects = [
    await projectWithHook(crowded.url),
    await projectWithHook(crowded.url),
    await projectWithHook(crowded.url),
  ];
  const otherProject = await projectWithHook(other.url);

  const sender = postPublishHookSender(app.platform);
  const hanging = crowdedProjects.map((project, n) => sender.handle(hookJob(project, n)));
  await eventually(
    async () => crowded.received.length,
    (count) => count === 1,
    { what: 'the first call at the crowded origin' },
  );
  expect(await sender.handle(hookJob(otherProject, 9))).toEqual({ kind: 'done' });
  expect(other.received).toHaveLength(1);
  expect(crowded.received).toHaveLength(1);

  await receivers.close(); // the hanging calls end as failures, to be retried
  const outcomes = await Promise.all(hanging);
  expect(outcomes.every((outcome) => outcome.kind === 'retry')).toBe(true);
  await sender.close();
});
