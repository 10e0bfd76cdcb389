import { afterAll, beforeAll } from 'vitest';
import { startInkstream, type TestInkstream } from './inkstream.ts';
import { stopPipeline } from './stopPipeline.ts';

/**
 * The world of most API tests: a real Inkstream with one project, "Acme" (its site is never
 * reached unless the pipeline runs), started before the file's tests and closed after them.
 * `pipeline: 'stopped'` keeps the crawl from filling the brand while the tests look at it.
 */
export function useAcmeProject(options: { pipeline: 'running' | 'stopped' }): {
  readonly app: TestInkstream;
  readonly projectId: string;
} {
  let app: TestInkstream | undefined;
  let projectId: string | undefined;
  beforeAll(async () => {
    app = await startInkstream();
    if (options.pipeline === 'stopped') await stopPipeline(app);
    projectId = (
      await app.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })
    ).body.project.id;
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the server starts in beforeAll');
      return app;
    },
    get projectId() {
      if (!projectId) throw new Error('the project is created in beforeAll');
      return projectId;
    },
  };
}
