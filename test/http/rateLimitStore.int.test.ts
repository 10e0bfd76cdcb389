import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'express';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';
import { openRateLimit, type OpenedRateLimit } from '../../src/http/rateLimitStore.ts';

const url = process.env.MONGODB_URL;

/** What the limiter writes on a response: its headers. */
const headerSink = () => {
  const headers: Record<string, string> = {};
  return {
    headers,
    res: {
      setHeader: (name: string, value: string) => {
        headers[name] = value;
      },
    } as unknown as Response,
  };
};

async function outcome(limits: OpenedRateLimit, keyId: string): Promise<number> {
  const { res } = headerSink();
  try {
    await limits.rateLimit.consume(keyId, res);
    return 200;
  } catch {
    return 429;
  }
}

test('without MONGODB_URL the counters are in memory, per process', async () => {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ink-rl-')),
    INKSTREAM_RATE_LIMIT_PER_MINUTE: '2',
  });
  const [first, second] = [await openRateLimit(config, null), await openRateLimit(config, null)];
  expect([
    await outcome(first, 'key_a'),
    await outcome(first, 'key_a'),
    await outcome(first, 'key_a'),
  ]).toEqual([200, 200, 429]);
  expect(await outcome(second, 'key_a')).toBe(200);
});

describe.skipIf(!url)('with MONGODB_URL', () => {
  const dbName = `inkstream_test_${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    const client = await MongoClient.connect(url!);
    try {
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });

  test("replicas share each key's budget, each through its read store's connection", async () => {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ink-rl-')),
      INKSTREAM_RATE_LIMIT_PER_MINUTE: '3',
    });
    const clients = [await MongoClient.connect(url!), await MongoClient.connect(url!)];
    const replicas = await Promise.all(
      clients.map((client) => openRateLimit(config, { client, dbName })),
    );
    try {
      const statuses = [];
      for (const replica of [0, 1, 0, 1])
        statuses.push(await outcome(replicas[replica], 'key_shared'));
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await outcome(replicas[1], 'key_other')).toBe(200);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
