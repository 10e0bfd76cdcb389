import type { Stores } from './stores.ts';

export const STORE_IDENTITY_COLLECTION = 'store_identity';
const EVENT_LOG_DOC = 'event_log';

export class StoreMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreMismatchError';
  }
}

/**
 * Read models and checkpoints are positions in one particular log. A read store that records
 * another log's identity would skip this log's events up to its checkpoints (a new, empty
 * EventStoreDB against an old MongoDB), so that start is refused instead. A read store with no
 * identity yet (new, or from before identities) takes this log's.
 */
export async function verifyStoreIdentity(stores: Stores): Promise<string> {
  const storeId = (await stores.eventStore.storeId({ create: true }))!;
  await stores.readStore.ensureCollections([{ name: STORE_IDENTITY_COLLECTION, indexes: [] }]);
  const recorded = await stores.readStore.get<{ id: string; storeId: string }>(
    STORE_IDENTITY_COLLECTION,
    EVENT_LOG_DOC,
  );
  if (!recorded) {
    await stores.readStore.save(STORE_IDENTITY_COLLECTION, { id: EVENT_LOG_DOC, storeId });
    return storeId;
  }
  if (recorded.storeId === storeId) return storeId;
  throw new StoreMismatchError(
    `The read models in ${stores.where.reads} were built from event log ${recorded.storeId}, but the event log in ` +
      `${stores.where.events} is ${storeId}: starting would skip this log's events. Either point DATA_DIR / EVENTSTORE_URL ` +
      'and MONGODB_URL at databases that belong together, or, if this event log is the right one, give the read models an ' +
      'empty database (a new MONGODB_URL database, or drop this one): Inkstream rebuilds every read model and checkpoint from the log when it starts.',
  );
}
