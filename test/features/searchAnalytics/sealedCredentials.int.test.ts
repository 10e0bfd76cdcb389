import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadStream } from '../../../src/eventstore/handleCommand.ts';
import { searchAnalyticsStream } from '../../../src/domain/searchAnalytics/decide.ts';
import { eventually } from '../../support/eventually.ts';
import type { ApiClient } from '../../support/inkstream.ts';
import { connectBody, integrationPath, settledSync, startGoogleAndProject } from './world.ts';

/** Project A's sealed Search Console credentials copied into project B's record do not open there. */
let world: Awaited<ReturnType<typeof startGoogleAndProject>>;
let clientB: ApiClient;
let projectB: string;

beforeAll(async () => {
  world = await startGoogleAndProject();
  expect((await world.app.api().put(integrationPath(world.projectId), connectBody())).status).toBe(
    200,
  );
  clientB = world.app.api(await world.app.newKey('b'));
  projectB = (
    await clientB.post('/projects', { name: 'Crumb B', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  expect((await clientB.put(integrationPath(projectB), connectBody())).status).toBe(200);
  await settledSync(clientB, projectB, eventually);
});
afterAll(() => world.close());

test("the moved credentials break B's connection with what to do, and the API answers 200, never 500", async () => {
  const { platform } = world.app;
  const a = (await loadStream(platform.eventStore, searchAnalyticsStream, world.projectId)).state;
  const b = (await loadStream(platform.eventStore, searchAnalyticsStream, projectB)).state;
  const { property, urlPattern, credentials } = b.connection!;
  await platform.commands.execute(
    searchAnalyticsStream,
    projectB,
    {
      type: 'ConnectSearchAnalytics',
      projectId: projectB,
      accountId: b.accountId!,
      connectionId: 'moved',
      syncId: platform.ids.next('run'),
      property,
      urlPattern,
      credentials,
      sealedCredentials: a.connection!.sealedCredentials,
      at: platform.clock.now(),
    },
    {
      accountId: b.accountId!,
      actor: { kind: 'system', worker: 'test-tamper' },
      correlationId: 'tamper',
      requestId: 'tamper',
      commandId: 'tamper:search',
    },
  );

  const broken = await eventually(
    async () => (await clientB.get(integrationPath(projectB))).body.searchAnalytics,
    (connection: any) => connection.status === 'broken',
    { what: "B's connection to be reported broken" },
  );
  expect(broken.reason).toMatch(/does not open as this record's search-credentials/);
  expect(broken.reason).toContain(
    `Save the credentials again with PUT /api/v1/projects/${projectB}/integrations/search-analytics`,
  );
  expect(broken.nextSyncAt).toBeNull();
  expect(
    (await world.app.api().get(integrationPath(world.projectId))).body.searchAnalytics.status,
  ).toBe('ok');
});
