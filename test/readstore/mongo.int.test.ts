import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe } from 'vitest';
import { openMongoReadStore } from '../../src/readstore/mongo.ts';
import { readStoreContract } from './contract.ts';
import { onlineRebuildContract } from './onlineRebuildContract.ts';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('mongo read store', () => {
  const databases: string[] = [];
  afterAll(async () => {
    const client = await MongoClient.connect(url!);
    try {
      for (const name of databases) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });

  readStoreContract(async () => {
    const dbName = `inkstream_test_${randomUUID().slice(0, 8)}`;
    databases.push(dbName);
    const store = await openMongoReadStore(url!, dbName);
    return { store, dispose: () => store.close() };
  });

  onlineRebuildContract(async () => {
    const dbName = `inkstream_test_${randomUUID().slice(0, 8)}`;
    databases.push(dbName);
    const stores = [await openMongoReadStore(url!, dbName)];
    return {
      store: stores[0],
      async another() {
        stores.push(await openMongoReadStore(url!, dbName));
        return stores.at(-1)!;
      },
      async dispose() {
        for (const store of stores) await store.close();
      },
    };
  });
});
