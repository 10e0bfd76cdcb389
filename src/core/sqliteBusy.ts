/** SQLITE_BUSY and its extended codes: another connection holds the lock this one needs. */
export function isSqliteBusy(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && errcode % 256 === 5;
}
