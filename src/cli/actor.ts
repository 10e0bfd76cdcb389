import type { Actor } from '../eventstore/port.ts';

/** Who the events of an admin command name: the operating-system user who ran it. */
export const cliActor = (): Actor => ({ kind: 'cli', user: process.env.USER ?? 'admin' });
