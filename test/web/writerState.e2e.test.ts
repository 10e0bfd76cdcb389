import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/**
 * The writer's state on a project's overview: which writer drafts (the model or the offline
 * writer) and which model, the project's own choice or else the server's default.
 */
let openAi: FakeOpenAi;
let withModel: TestInkstream;
let offline: TestInkstream;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  openAi = await startFakeOpenAi();
  withModel = await startInkstream({ env: openAi.env });
  offline = await startInkstream();
  await stopPipeline(withModel);
  await stopPipeline(offline);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await withModel?.close();
  await offline?.close();
  await openAi?.close();
});

async function overviewWriter(inkstream: TestInkstream, projectId: string) {
  const page = await signedInPage(browser, inkstream, {
    email: 'viewer@test.example',
    role: 'viewer',
  });
  await page.goto(`${inkstream.url}/projects/${projectId}`);
  const writer = page.locator('p.writer');
  await writer.waitFor({ timeout: 30_000 });
  return { page, text: await writer.textContent() };
}

test.skipIf(!hasChromium)(
  "the overview names the server's default model, then the project's own once it chooses one",
  { timeout: 120_000 },
  async () => {
    const api = withModel.api();
    const projectId = (
      await api.post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
    ).body.project.id;
    expect((await api.get(`/projects/${projectId}`)).body.project.writer).toEqual({
      writer: 'model',
      model: 'gpt-fake',
    });
    const shown = await overviewWriter(withModel, projectId);
    expect(shown.text).toBe('Writer: the model gpt-fake');

    const changed = await api.patch(`/projects/${projectId}`, {
      settings: { model: 'gpt-4.1-mini' },
    });
    expect(changed.status).toBe(200);
    await shown.page.reload();
    await shown.page.getByText('Writer: the model gpt-4.1-mini').waitFor({ timeout: 30_000 });
    await checkPage(shown.page, 'overview-writer-model');
  },
);

test.skipIf(!hasChromium)(
  'without OPENAI_API_KEY the overview says the offline writer writes briefs, and names no model',
  { timeout: 120_000 },
  async () => {
    const api = offline.api();
    const projectId = (
      await api.post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
    ).body.project.id;
    expect((await api.get(`/projects/${projectId}`)).body.project.writer).toEqual({
      writer: 'offline',
      model: null,
    });
    const shown = await overviewWriter(offline, projectId);
    expect(shown.text).toContain('Writer: offline');
    expect(shown.text).toContain('drafts are briefs');
    await checkPage(shown.page, 'overview-writer-offline');
  },
);
