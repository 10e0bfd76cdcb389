/**
 * Read models: named collections of JSON documents, disposable and rebuilt from the log.
 * Every write carries the position of the event that caused it; a write whose position is not
 * newer than the stored one is ignored, so a replayed event never moves a document backwards.
 */
export type Doc = { id: string } & Record<string, unknown>;

export type Filter = Record<string, string | number | boolean | null>;

export type FindOptions = {
  filter?: Filter;
  /** A declared indexed field (or 'id'); ties are broken by id. */
  sort?: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  cursor?: string;
};

export type Page<T> = { items: T[]; nextCursor: string | null };

/** A tally (tally.ts) a put's document is counted in: per value of `groupBy`, how many have each of `values` in `countBy`. */
export type TallyTarget = {
  collection: string;
  groupBy: string;
  countBy: string;
  values: readonly string[];
};

export type ReadModelWrite =
  /**
   * Replace the document (or delete it when doc is null), if position is newer than the stored one.
   * `countedIn` (only where the store's `talliesInCommit`): when the put lands, each tally moves the
   * document from the group and value the stored one had to those of `doc`, in the same transaction.
   */
  | {
      kind: 'put';
      collection: string;
      id: string;
      doc: Doc | null;
      position: bigint;
      countedIn?: readonly TallyTarget[];
    }
  /** Insert only when no document has this id (an outbox row, a dedup marker). */
  | { kind: 'insert_if_absent'; collection: string; id: string; doc: Doc };

/**
 * One query shape a collection serves: the fields it filters on by equality, then the field it
 * sorts on, each ascending (1) or descending (-1); ties are broken by id in the last field's
 * direction. A plain field name is the one-field index `{ field: 1 }`.
 */
export type IndexSpec = string | Readonly<Record<string, 1 | -1>>;

export type CollectionSpec = {
  name: string;
  indexes: readonly IndexSpec[];
  /** The version of the definition that fills it (a projection's); recorded when the collection is created. */
  version?: string;
};

/** Rebuilding a collection beside the one that serves, then swapping it in. */
export interface OnlineRebuilds {
  /** The version the collection was built with; null when unknown (a file from before versions). */
  versionOf(collection: string): Promise<string | null>;
  /** Creates `staging`, an empty copy of the declared collection (its indexes deferred), replacing any earlier one. */
  stage(collection: string, staging: string, version: string): Promise<void>;
  /**
   * Each staged copy replaces its collection and the old one is dropped, but only when the `built`
   * checkpoint has reached the `live` one (so the live consumer misses no event); the `built`
   * checkpoint then becomes the `catchUp` one (kept if one is there already: it is older). False,
   * changing nothing, otherwise: catch up and try again. SQLite does it in one transaction; MongoDB
   * renames one collection after another, each atomically for its readers, so a write a replica
   * lands on an old collection after the check goes with it: the events after `catchUp` are
   * replayed into the new collections (catchUpAfterSwap), also after a crash.
   */
  swapIn(
    pairs: readonly { collection: string; staging: string }[],
    checkpoints: { built: string; live: string; catchUp: string },
  ): Promise<boolean>;
}

export interface ReadStore {
  /** Create collections and their indexes; safe to call again. */
  ensureCollections(specs: readonly CollectionSpec[]): Promise<void>;
  get<T extends Doc>(collection: string, id: string): Promise<T | null>;
  /** Several ids at once; missing ids are left out. */
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<T[]>;
  find<T extends Doc>(collection: string, options: FindOptions): Promise<Page<T>>;
  count(collection: string, filter?: Filter): Promise<number>;
  /**
   * Apply the writes and move the consumer's checkpoint, atomically where the store allows
   * (one SQLite transaction); on MongoDB the guarded writes land first, then the checkpoint.
   */
  commit(
    writes: readonly ReadModelWrite[],
    checkpoint?: { consumer: string; position: bigint },
  ): Promise<void>;
  /**
   * True where commit applies a put's `countedIn` tallies in its own transaction (SQLite); false where
   * no transaction spans the writes (MongoDB), and the fold counts the touched groups again instead.
   */
  readonly talliesInCommit: boolean;
  /** Unguarded write for state that is not derived from the log (delivery attempts, leases). */
  save(collection: string, doc: Doc): Promise<void>;
  remove(collection: string, id: string): Promise<void>;
  getCheckpoint(consumer: string): Promise<bigint | null>;
  /**
   * Take or renew a named lease until nowMs + ttlMs. True when `holder` holds it afterwards: it was
   * free, expired, already this holder's, or held by `replacing`. Used so one process of several
   * runs the side effects.
   */
  acquireLease(
    name: string,
    holder: string,
    ttlMs: number,
    nowMs: number,
    options?: { replacing?: string },
  ): Promise<boolean>;
  /** Who holds the lease (even if expired), so a holder known to be dead can be replaced at once. */
  leaseHolder(name: string): Promise<{ holder: string; expiresAtMs: number } | null>;
  releaseLease(name: string, holder: string): Promise<void>;
  /** A collection rebuilt while the old one serves. */
  readonly onlineRebuilds: OnlineRebuilds;
  /** Drop the collections' documents and the named consumers' checkpoints (for a rebuild). */
  reset(collections: readonly string[], consumers: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
