import type { TestInkstream } from './inkstream.ts';

/**
 * Stops the content pipeline's process managers (consumers named `pipeline.*`) of a test server,
 * so a test can move articles through their states itself with the pipeline's own commands.
 * Call it before the test creates articles; projections and other consumers keep running.
 */
export async function stopPipeline(app: TestInkstream): Promise<void> {
  const pipeline = app.background.consumers.filter((consumer) =>
    consumer.name.startsWith('pipeline.'),
  );
  await Promise.all(pipeline.map((consumer) => consumer.stop()));
}
