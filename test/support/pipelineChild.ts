/**
 * A real Inkstream process for crash tests: the server from src/server.ts with the offline writer,
 * wrapped so every call into the writer is logged (method, subject, time) to DATA_DIR/llm-calls.ndjson
 * before it starts, and slowed by LLM_DELAY_MS (plus up to as much again) so that kills land inside
 * steps; a subject containing LLM_SLOW_SUBJECT takes LLM_SLOW_MS instead, so later work finishes past it. Prints "listening <url>" when it serves; the first start also prints the key.
 * Configured by the environment like src/main.ts; the test kills it with SIGKILL.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createOfflineWriter } from '../../src/integrations/llm/offline/index.ts';
import type { ContentWriter } from '../../src/integrations/llm/writer.ts';
import { startServer } from '../../src/app/start.ts';

export const LLM_CALLS_FILE = 'llm-calls.ndjson';

const config = loadConfig();
const offline = createOfflineWriter();
const delayMs = Number(process.env.LLM_DELAY_MS ?? 0);
const slowSubject = process.env.LLM_SLOW_SUBJECT || null;
const slowMs = Number(process.env.LLM_SLOW_MS ?? 0);

async function logged<T>(method: string, subject: string, call: () => Promise<T>): Promise<T> {
  appendFileSync(
    join(config.dataDir, LLM_CALLS_FILE),
    `${JSON.stringify({ method, subject, at: Date.now(), pid: process.pid })}\n`,
  );
  if (slowSubject && subject.includes(slowSubject)) await delay(slowMs);
  else if (delayMs > 0) await delay(delayMs + ((subject.length * 7) % delayMs));
  return call();
}

const writer: ContentWriter = {
  provider: offline.provider,
  suggestTopics: (input) =>
    logged('suggestTopics', input.brand.name, () => offline.suggestTopics(input)),
  researchArticle: (input) =>
    logged('researchArticle', input.topic.title, () => offline.researchArticle(input)),
  writeArticle: (input) =>
    logged('writeArticle', input.topic.title, () => offline.writeArticle(input)),
  reviseArticle: (input) =>
    logged('reviseArticle', input.instruction, () => offline.reviseArticle(input)),
};

const running = await startServer(config, createLogger(config.LOG_LEVEL), {
  pipeline: { writer, schedulerTickMs: 3_600_000 },
});
process.stdout.write(`listening ${running.url}\n`);
