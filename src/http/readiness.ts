export type CheckState = 'ok' | 'failing';

/** What GET /readyz answers: ready means this process can serve the API, whichever role it has. */
export type Readiness = {
  ok: boolean;
  /** leader: this process holds the background lease and runs the side effects; standby: another does. */
  role: 'leader' | 'standby';
  /** What serving the API needs: the stores, and the projections that keep its read models current. */
  checks: Record<string, CheckState | 'connecting'>;
  /** The side-effect consumers this process runs (only while it leads); they do not decide readiness. */
  background: Record<string, CheckState>;
  /** Which writer drafts: a language model, or the offline writer's briefs (which model: the start-up log, not this unauthenticated probe). */
  writer?: 'model' | 'offline';
};

/**
 * Readiness while start-up still waits for the stores (storeConnection.ts): not ready, and no
 * lease held yet. Why the stores cannot be reached goes to the log, not here.
 */
export function connectingReadiness(): Readiness {
  return { ok: false, role: 'standby', checks: { stores: 'connecting' }, background: {} };
}
