import { MongoBulkWriteError, MongoClient } from 'mongodb';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import { positionFromText } from '../core/positions.ts';
import {
  assertCollectionSpec,
  assertLimit,
  assertWriteId,
  createCollectionRegistry,
  writePosition,
} from './collections.ts';
import { decodeCursor, encodeCursor, toSortKey } from './cursor.ts';
import {
  afterQuery,
  filterQuery,
  mongoIndex,
  readAgainIfSwapped,
  readSortKey,
  sortSpec,
} from './mongoQuery.ts';
import type { StoredCheckpoint, StoredDoc } from './mongoQuery.ts';
import { createMongoSwaps } from './mongoSwap.ts';
import type { Doc, FindOptions, ReadModelWrite, ReadStore } from './port.ts';

const DUPLICATE_KEY = 11000;
const NAMESPACE_EXISTS = 48;

/** Another process starting at the same moment created the collection first. */
function unlessNamespaceExists(error: unknown): void {
  if ((error as { code?: number }).code !== NAMESPACE_EXISTS) throw error;
}

/**
 * The read store's client and database, for state kept beside the read models (the sign-in and
 * API rate-limit counters): one connection pool per process, closed with the read store.
 */
export type MongoConnection = { client: MongoClient; dbName: string };

type Lease = { _id: string; holder: string; expiresAt: number };

/**
 * Read models in MongoDB. The checkpoint cannot share a transaction with the writes, so commit
 * lands the writes first and then moves the checkpoint: a crash in between replays the batch
 * (at-least-once). That is safe because every put is guarded by its event's position — a replayed
 * put matches no document with an equal or newer position, and its upsert then fails on the
 * unique _id with E11000, which is read as "already applied" — and insert_if_absent never
 * overwrites. A replayed batch therefore leaves the same state as a batch applied once.
 */
export async function openMongoReadStore(
  url: string,
  dbName?: string,
): Promise<ReadStore & { readonly connection: MongoConnection }> {
  // ignoreUndefined: an undefined field is dropped, as JSON.stringify drops it in the SQLite store.
  const client = new MongoClient(url, { ignoreUndefined: true });
  await client.connect();
  const db = client.db(dbName);
  const registry = createCollectionRegistry();
  const checkpoints = db.collection<StoredCheckpoint>('checkpoints');
  const leases = db.collection<Lease>('leases');
  const swaps = createMongoSwaps(db, registry, checkpoints);

  function collection(name: string): Collection<StoredDoc> {
    registry.indexesOf(name); // throws for an undeclared collection
    return db.collection<StoredDoc>(swaps.physicalName(name));
  }

  return {
    connection: { client, dbName: db.databaseName },
    // No transaction spans a batch's writes here: the projection fold recounts (tally.ts).
    talliesInCommit: false,

    async ensureCollections(specs) {
      for (const spec of specs) assertCollectionSpec(spec);
      for (const spec of specs) {
        const target = db.collection<StoredDoc>(swaps.physicalName(spec.name));
        const created =
          spec.version !== undefined &&
          !(await db
            .listCollections({ name: target.collectionName }, { nameOnly: true })
            .hasNext());
        if (created) await db.createCollection(target.collectionName).catch(unlessNamespaceExists);
        for (const index of spec.indexes) await target.createIndex(mongoIndex(index));
        // A new, empty collection is built by this definition; an existing one keeps what it recorded.
        if (created) await swaps.recordVersion(spec.name, spec.version!);
        registry.declare(spec);
      }
    },

    onlineRebuilds: swaps.rebuilds,

    async get<T extends Doc>(name: string, id: string) {
      const found = await readAgainIfSwapped(() =>
        collection(name).findOne({ _id: id, doc: { $ne: null } }),
      );
      return (found?.doc as T | undefined) ?? null;
    },

    async getMany<T extends Doc>(name: string, ids: readonly string[]) {
      const rows = await readAgainIfSwapped(() =>
        collection(name)
          .find({ _id: { $in: [...ids] }, doc: { $ne: null } })
          .toArray(),
      );
      const found = new Map(rows.map((row) => [row._id, row.doc as T]));
      return [...new Set(ids)].filter((id) => found.has(id)).map((id) => found.get(id)!);
    },

    async find<T extends Doc>(name: string, options: FindOptions) {
      registry.assertQueryable(name, options.filter, options.sort);
      assertLimit(options.limit);
      const target = collection(name);
      const conditions = [filterQuery(options.filter)];
      if (options.cursor !== undefined)
        conditions.push(afterQuery(options, decodeCursor(options.cursor)));
      const { sort, field } = sortSpec(options);
      const rows = await readAgainIfSwapped(() =>
        target.find({ $and: conditions }, { sort, limit: options.limit + 1 }).toArray(),
      );
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((row) => row.doc as T),
        nextCursor:
          rows.length > options.limit
            ? encodeCursor({ key: toSortKey(readSortKey(last, field)), id: last._id })
            : null,
      };
    },

    async count(name, filter) {
      registry.assertQueryable(name, filter);
      return readAgainIfSwapped(() => collection(name).countDocuments(filterQuery(filter)));
    },

    async commit(writes, checkpoint) {
      const moved = checkpoint && {
        consumer: checkpoint.consumer,
        position: writePosition(checkpoint.position),
      };
      const batches = new Map<string, AnyBulkWriteOperation<StoredDoc>[]>();
      for (const write of writes) {
        const name = collection(write.collection).collectionName; // validates the whole batch before anything is written
        assertWriteId(write.collection, write.id, write.doc);
        if (!batches.has(name)) batches.set(name, []);
        batches.get(name)!.push(toOperation(write));
      }
      await Promise.all(
        [...batches].map(([name, operations]) =>
          bulkWriteIgnoringDuplicates(db.collection<StoredDoc>(name), operations),
        ),
      );
      if (moved) await moveCheckpointForward(checkpoints, moved.consumer, moved.position);
    },

    async save(name, doc) {
      await collection(name).replaceOne({ _id: doc.id }, { doc }, { upsert: true });
    },

    async remove(name, id) {
      await collection(name).deleteOne({ _id: id });
    },

    async acquireLease(name, holder, ttlMs, nowMs, options = {}) {
      const takeable = [
        { holder },
        { expiresAt: { $lte: nowMs } },
        ...(options.replacing ? [{ holder: options.replacing }] : []),
      ];
      try {
        // Matches only a lease that is ours or expired; when another holder's lease is live the
        // upsert tries to insert a second document with that _id and fails with E11000.
        await leases.updateOne(
          { _id: name, $or: takeable },
          { $set: { holder, expiresAt: nowMs + ttlMs } },
          { upsert: true },
        );
        return true;
      } catch (error) {
        if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
        throw error;
      }
    },

    async leaseHolder(name) {
      const lease = await leases.findOne({ _id: name });
      return lease ? { holder: lease.holder, expiresAtMs: lease.expiresAt } : null;
    },

    async releaseLease(name, holder) {
      await leases.deleteOne({ _id: name, holder });
    },

    async getCheckpoint(consumer) {
      const found = await checkpoints.findOne({ _id: consumer });
      return found ? positionFromText(found.position) : null;
    },

    async reset(collections, consumers) {
      for (const name of collections) await collection(name).deleteMany({});
      if (consumers.length > 0) await checkpoints.deleteMany({ _id: { $in: [...consumers] } });
    },

    async close() {
      await client.close();
    },
  };
}

/**
 * Replicas project into the same database, each at its own pace, so a checkpoint only moves
 * forwards: the update matches only an older position (zero-padded strings compare as numbers);
 * against a newer one the upsert tries a second document with that _id and fails with E11000,
 * which means another replica is already further.
 */
async function moveCheckpointForward(
  checkpoints: Collection<StoredCheckpoint>,
  consumer: string,
  position: string,
): Promise<void> {
  try {
    await checkpoints.updateOne(
      { _id: consumer, position: { $lt: position } },
      { $set: { position } },
      { upsert: true },
    );
  } catch (error) {
    if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
  }
}

function toOperation(write: ReadModelWrite): AnyBulkWriteOperation<StoredDoc> {
  switch (write.kind) {
    case 'put': {
      const position = writePosition(write.position);
      return {
        updateOne: {
          filter: {
            _id: write.id,
            $or: [{ position: { $lt: position } }, { position: { $exists: false } }],
          },
          update: { $set: { position, doc: write.doc } },
          upsert: true,
        },
      };
    }
    case 'insert_if_absent':
      return {
        updateOne: {
          filter: { _id: write.id },
          update: { $setOnInsert: { doc: write.doc } },
          upsert: true,
        },
      };
    default: {
      const unknown: never = write;
      throw new Error(`unknown read model write ${JSON.stringify(unknown)}`);
    }
  }
}

/** Unordered, so one stale write does not stop the others; E11000 means a newer document won. */
async function bulkWriteIgnoringDuplicates(
  target: Collection<StoredDoc>,
  operations: AnyBulkWriteOperation<StoredDoc>[],
): Promise<void> {
  try {
    await target.bulkWrite(operations, { ordered: false });
  } catch (error) {
    if (error instanceof MongoBulkWriteError && onlyDuplicateKeys(error)) return;
    throw error;
  }
}

function onlyDuplicateKeys(error: MongoBulkWriteError): boolean {
  const writeErrors = error.result.getWriteErrors();
  return (
    writeErrors.length > 0 &&
    writeErrors.every((writeError) => writeError.code === DUPLICATE_KEY) &&
    error.result.getWriteConcernError() === undefined
  );
}
