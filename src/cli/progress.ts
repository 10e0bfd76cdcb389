/** A one-line progress bar on stderr: done / total, rate and ETA. Silent when stderr is not a terminal, except the last line. */
export function createProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  let lastDraw = 0;
  const line = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? Math.max(0, (total - done) / rate) : 0;
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${Math.round(rate)}/s ETA ${eta.toFixed(1)}s`;
  };
  return {
    update(done: number) {
      const now = performance.now();
      if (!stream.isTTY || now - lastDraw < 100) return;
      lastDraw = now;
      stream.write(`\r${line(done)}`);
    },
    finish(done: number): { seconds: number; rate: number } {
      const seconds = (performance.now() - started) / 1000;
      stream.write(`${stream.isTTY ? '\r' : ''}${line(done)}\n`);
      return { seconds, rate: seconds > 0 ? done / seconds : done };
    },
  };
}
