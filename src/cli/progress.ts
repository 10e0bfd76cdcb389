export type ProgressOptions = {
  stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;
  /** Milliseconds on a monotonic clock (tests give their own). */
  now?: () => number;
};

/**
 * A one-line progress bar on stderr for a pass over the log, from position `from` (exclusive) to
 * `head`: the events done, counted as they are read, and how far the pass is, told by the position
 * reached. The two differ wherever positions are not a count: on EventStoreDB they are byte
 * offsets, and a pass over a few categories skips the other events. So the bar, its percentage and
 * the ETA follow the position, and the count and rate follow the events. Silent when stderr is not
 * a terminal, except the last line.
 */
export function createLogProgress(
  label: string,
  span: { from?: bigint; head: bigint },
  options: ProgressOptions = {},
) {
  const { stream = process.stderr, now = () => performance.now() } = options;
  const from = span.from ?? -1n;
  const started = now();
  let lastDraw = -Infinity;

  /** The share of the span passed, in ten-thousandths: bigint arithmetic, positions never become numbers. */
  const passed = (position: bigint): number => {
    if (span.head <= from || position >= span.head) return 1;
    if (position <= from) return 0;
    return Number(((position - from) * 10_000n) / (span.head - from)) / 10_000;
  };

  const line = (events: number, share: number) => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? events / seconds : 0;
    const eta = share > 0 ? (seconds * (1 - share)) / share : 0;
    const width = 24;
    const filled = Math.round(share * width);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${events} events ${Math.round(rate)}/s ETA ${eta.toFixed(1)}s`;
  };

  return {
    /** `events` read so far; `position` the last one's. */
    update(events: number, position: bigint) {
      const at = now();
      if (!stream.isTTY || at - lastDraw < 100) return;
      lastDraw = at;
      stream.write(`\r${line(events, passed(position))}`);
    },
    finish(events: number): { seconds: number; rate: number } {
      const seconds = (now() - started) / 1000;
      stream.write(`${stream.isTTY ? '\r' : ''}${line(events, 1)}\n`);
      return { seconds, rate: seconds > 0 ? events / seconds : events };
    },
  };
}
