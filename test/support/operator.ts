import type { Actor } from '../../src/eventstore/port.ts';

/** The actor of the admin commands tests run in process, as the CLI would record an operator. */
export const OPERATOR: Actor = { kind: 'cli', user: 'test-operator' };
