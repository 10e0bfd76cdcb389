import { describe, expect, test } from 'vitest';
import type { CurrentStore } from './contract.ts';
import { newEvent } from './events.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every log has one identity, created once, so read models can tell which log they were built from. */
export function identityContract(store: CurrentStore, options: { embedded?: boolean }): void {
  describe('store identity', () => {
    test('created once: later calls, and calls racing the first, all answer the same identity', async () => {
      const racing = await Promise.all([
        store().storeId({ create: true }),
        store().storeId({ create: true }),
      ]);
      expect(racing[0]).toMatch(UUID);
      expect(racing[1]).toBe(racing[0]);
      expect(await store().storeId({ create: false })).toBe(racing[0]);
      expect(await store().storeId({ create: true })).toBe(racing[0]);
    });

    if (options.embedded) {
      test('a new log has none until asked to create it, and creating it writes no event', async () => {
        expect(await store().storeId({ create: false })).toBeNull();
        await store().append('project-1', [newEvent('A')], 'no_stream');
        expect(await store().storeId({ create: false })).toBeNull();
        await store().storeId({ create: true });
        expect(await store().headPosition()).toBe(0n);
        expect(await store().readAll()).toHaveLength(1);
      });
    }
  });
}
