import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from './fakeOpenAi.ts';
import { startInkstream, type TestInkstream } from './inkstream.ts';
import { startTestSite, type TestSite, type TestSiteOptions } from './testSite.ts';

export type ModelWorld = {
  fake: FakeOpenAi;
  site: TestSite;
  app: TestInkstream;
  close(): Promise<void>;
};

/**
 * The world of the pipeline's model tests: a local OpenAI-compatible server answering with
 * `respond`, the test website, and an Inkstream pointed at that model (rate limit out of the
 * way); `close` ends all three.
 */
export async function startModelWorld(options: {
  respond: FakeOpenAiOptions['respond'];
  site?: TestSiteOptions;
  env?: Record<string, string>;
}): Promise<ModelWorld> {
  const fake = await startFakeOpenAi({ respond: options.respond });
  const site = await startTestSite(options.site);
  const app = await startInkstream({
    env: { ...fake.env, INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000', ...options.env },
  });
  return {
    fake,
    site,
    app,
    async close() {
      await app.close();
      await site.close();
      await fake.close();
    },
  };
}
