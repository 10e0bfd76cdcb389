import type { StatementSync } from 'node:sqlite';
import { writePosition } from './collections.ts';
import type { ReadModelWrite, TallyTarget } from './port.ts';
import { columnName } from './sqliteQuery.ts';

type Put = Extract<ReadModelWrite, { kind: 'put' }>;
/** Where a document is counted: its group and value, or null when the tally does not count it. */
type Slot = { group: string; value: string } | null;

export type TallyAccess = {
  /** A prepared statement for the SQL text, cached until the store forgets its statements. */
  prepare(sql: string): StatementSync;
  /** The table that holds the collection now; throws for an undeclared collection. */
  tableOf(collection: string): string;
  /** Throws unless both fields are declared indexes of the source (they are generated columns, named in SQL). */
  assertCounted(source: string, target: TallyTarget): void;
};

const slotOf = (target: TallyTarget, group: unknown, value: unknown): Slot =>
  typeof group === 'string' && typeof value === 'string' && target.values.includes(value)
    ? { group, value }
    : null;

const sameSlot = (a: Slot, b: Slot) => a?.group === b?.group && a?.value === b?.value;

/**
 * One transaction's changes to its tallies (tally.ts). Each put that lands moves its document out
 * of the group and value of the row it replaced, read inside the transaction, and into those of
 * its new document. The change is derived from what the store held, never from what the writer
 * loaded before: a put the position guard refuses (a replay, a slower process, a table an online
 * rebuild swapped in meanwhile) moves nothing, and the counts are written in the same transaction
 * as the documents, so a crash leaves both or neither. The cost is a key lookup per counted put and
 * one per touched group: nothing grows with the group's size.
 */
export function createTallyChanges(access: TallyAccess) {
  /** Tally collection → group → value → how many more (or fewer), and the newest position that moved it. */
  const changes = new Map<
    string,
    { target: TallyTarget; groups: Map<string, { by: Map<string, number>; position: bigint }> }
  >();

  function move(target: TallyTarget, slot: NonNullable<Slot>, by: number, position: bigint): void {
    let tally = changes.get(target.collection);
    if (!tally) changes.set(target.collection, (tally = { target, groups: new Map() }));
    let group = tally.groups.get(slot.group);
    if (!group) tally.groups.set(slot.group, (group = { by: new Map(), position }));
    group.by.set(slot.value, (group.by.get(slot.value) ?? 0) + by);
    if (position > group.position) group.position = position;
  }

  return {
    /** Before the put: where each of its tallies counts the stored row (tombstones and absent rows nowhere). */
    storedSlots(put: Put, targets: readonly TallyTarget[]): Slot[] {
      if (targets.length === 0) return [];
      const table = access.tableOf(put.collection);
      return targets.map((target) => {
        access.assertCounted(put.collection, target);
        const row = access
          .prepare(
            `SELECT "${columnName(target.groupBy)}" AS grp, "${columnName(target.countBy)}" AS val FROM ${table} WHERE id = ?`,
          )
          .get(put.id);
        return row ? slotOf(target, row.grp, row.val) : null;
      });
    },

    /** After a put that landed: moves its document from the slots it had to the ones it has. */
    landed(put: Put, targets: readonly TallyTarget[], before: readonly Slot[]): void {
      targets.forEach((target, i) => {
        const after = put.doc && slotOf(target, put.doc[target.groupBy], put.doc[target.countBy]);
        if (sameSlot(before[i], after)) return;
        if (before[i]) move(target, before[i]!, -1, put.position);
        if (after) move(target, after, 1, put.position);
      });
    },

    /**
     * Adds the changes to the tally documents; the transaction's last write before the checkpoint.
     * A group left with nothing counted loses its document, so the tally is a function of the
     * source's documents alone, however its history was batched (a rebuild's equals the live one).
     */
    write(): void {
      for (const { target, groups } of changes.values()) {
        const table = access.tableOf(target.collection);
        const read = access.prepare(`SELECT position, doc FROM ${table} WHERE id = ?`);
        const store = access.prepare(
          `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc`,
        );
        const drop = access.prepare(`DELETE FROM ${table} WHERE id = ?`);
        for (const [group, { by, position }] of groups) {
          const row = read.get(group);
          const stored = row?.doc
            ? (JSON.parse(row.doc as string) as { counts?: Record<string, number> }).counts
            : undefined;
          const counts = Object.fromEntries(
            target.values.map((value) => [value, (stored?.[value] ?? 0) + (by.get(value) ?? 0)]),
          );
          if (Object.values(counts).every((count) => count === 0)) {
            drop.run(group);
            continue;
          }
          // The position of the newest document counted: zero-padded text, so text order is number order.
          const newest = writePosition(position);
          const kept =
            typeof row?.position === 'string' && row.position > newest ? row.position : newest;
          store.run(group, kept, JSON.stringify({ id: group, counts }));
        }
      }
    },
  };
}
