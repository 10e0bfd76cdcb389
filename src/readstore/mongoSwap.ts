import { randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { CollectionRegistry } from './collections.ts';
import { collectionName, mongoIndex, type StoredCheckpoint } from './mongoQuery.ts';
import type { OnlineRebuilds } from './port.ts';

/**
 * One document per collection: the version of the definition that built it. A staged copy has its
 * own document under the staging name, naming the collection that holds it (`stagedAs`), so the
 * next stage, in this process or another, can drop a copy a stopped build left behind.
 */
type VersionRecord = { _id: string; version: string | null; stagedAs?: string };

const VERSIONS_COLLECTION = 'readstore_versions';

/**
 * Online rebuilds on MongoDB: a staged copy is filled in a collection of its own, then renamed over
 * the one that serves. Readers see the old documents or the new ones, never a mix or none. No
 * transaction spans several renames (or a rename and the checkpoints), so each collection is
 * swapped on its own, after a check that the build has caught up with the live consumer; events a
 * replica applies to an old collection between the check and its rename are replayed into the new
 * one after the swap, from the catch-up checkpoint written before the first rename (rebuild.ts).
 */
export function createMongoSwaps(
  db: Db,
  registry: CollectionRegistry,
  checkpoints: Collection<StoredCheckpoint>,
) {
  const versions = db.collection<VersionRecord>(VERSIONS_COLLECTION);
  // The collections this process stages into, by staging name; other processes never read them.
  const staged = new Map<string, string>();

  const rebuilds: OnlineRebuilds = {
    async versionOf(collection) {
      return (await versions.findOne({ _id: collection }))?.version ?? null;
    },

    async stage(collection, staging, version) {
      const indexes = registry.indexSpecsOf(collection);
      const earlier = await versions.findOne({ _id: staging });
      if (earlier?.stagedAs) await db.dropCollection(earlier.stagedAs);
      const physical = `${collectionName(staging)}_${randomBytes(4).toString('hex')}`;
      // Recorded before it exists, so a crash in between leaves nothing the next stage cannot drop.
      await versions.replaceOne(
        { _id: staging },
        { version, stagedAs: physical },
        { upsert: true },
      );
      // Created now, even with no index, so the rename finds it when the log has nothing for it.
      await db.createCollection(physical);
      for (const index of indexes) await db.collection(physical).createIndex(mongoIndex(index));
      staged.set(staging, physical);
      registry.declare({ name: staging, indexes });
    },

    async swapIn(pairs, { built, live, catchUp }) {
      for (const { collection, staging } of pairs) {
        registry.indexesOf(collection);
        registry.indexesOf(staging);
      }
      const [builtAt, liveAt] = await Promise.all([
        checkpoints.findOne({ _id: built }),
        checkpoints.findOne({ _id: live }),
      ]);
      // Zero-padded text: text order is numeric order.
      if (liveAt && (!builtAt || builtAt.position < liveAt.position)) return false;
      // Before the first rename: a crash after it still leaves what to catch up from.
      if (builtAt)
        await checkpoints.updateOne(
          { _id: catchUp },
          { $setOnInsert: { position: builtAt.position } },
          { upsert: true },
        );
      for (const { collection, staging } of pairs) {
        const record = await versions.findOne({ _id: staging });
        // Only the copy this process filled: another stage since (this process stalled past its rebuild lease) replaced it.
        if (!record?.stagedAs || record.stagedAs !== staged.get(staging))
          throw new Error(
            `the staged copy of ${collection} is not the one this rebuild filled: another rebuild staged it since`,
          );
        await db.renameCollection(record.stagedAs, collectionName(collection), {
          dropTarget: true,
        });
        await versions.updateOne(
          { _id: collection },
          { $set: { version: record.version } },
          { upsert: true },
        );
        await versions.deleteOne({ _id: staging });
        staged.delete(staging);
      }
      await checkpoints.deleteOne({ _id: built });
      return true;
    },
  };

  return {
    rebuilds,
    /** The MongoDB collection that holds a read model (or a staged copy this process fills). */
    physicalName: (name: string): string => staged.get(name) ?? collectionName(name),
    async recordVersion(name: string, version: string): Promise<void> {
      await versions.updateOne({ _id: name }, { $set: { version } }, { upsert: true });
    },
  };
}
