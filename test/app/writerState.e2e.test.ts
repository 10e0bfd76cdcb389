import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { firstStartProcesses } from '../support/firstStartProcess.ts';

/** `npm start` says which writer drafts; /readyz says only which kind, to anyone. */
const { start, killAll } = firstStartProcesses();
afterAll(() => killAll());

const listening = (printed: string) =>
  JSON.parse(printed.split('\n').find((line) => line.includes('"url":"http'))!) as {
    msg: string;
    writer: string;
    model: string | null;
  };

test('without OPENAI_API_KEY the start-up log and /readyz say the offline writer is in use', async () => {
  const { url, printed } = await start(mkdtempSync(join(tmpdir(), 'ink-writer-')), {
    OPENAI_API_KEY: '',
  });
  const line = listening(printed);
  expect(line).toMatchObject({ writer: 'offline', model: null });
  expect(line.msg).toBe(
    'inkstream listening; writer: offline (OPENAI_API_KEY is not set: drafts are briefs, not articles)',
  );
  const ready = (await (await fetch(`${url}/readyz`)).json()) as { writer: string };
  expect(ready.writer).toBe('offline');
}, 60_000);

test('with a key the start-up log names the model and its server; /readyz says "model" and nothing more', async () => {
  const { url, printed } = await start(mkdtempSync(join(tmpdir(), 'ink-writer-')), {
    OPENAI_API_KEY: 'sk-test-not-a-real-key',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    INKSTREAM_DEFAULT_MODEL: 'llama3.1:8b',
  });
  const line = listening(printed);
  expect(line).toMatchObject({ writer: 'model', model: 'llama3.1:8b' });
  expect(line.msg).toBe(
    'inkstream listening; writer: the model llama3.1:8b at http://127.0.0.1:9/v1',
  );
  expect(printed).not.toContain('sk-test-not-a-real-key');
  const response = await fetch(`${url}/readyz`);
  const text = await response.text();
  expect(JSON.parse(text).writer).toBe('model');
  expect(text).not.toContain('llama3.1');
  expect(text).not.toContain('127.0.0.1:9');
}, 60_000);
