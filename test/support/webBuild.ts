import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const WEB = join(import.meta.dirname, '../../web');
const BUILT = join(WEB, 'dist', 'index.html');

/**
 * Vitest's global setup: the server serves web/dist, so a test run after an edit under web/src
 * builds it first instead of testing yesterday's page (npm ci builds it on a fresh clone).
 */
export default function buildWebWhenStale(): void {
  const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
  const newest = Math.max(
    ...[join(WEB, 'src'), join(WEB, 'index.html'), join(WEB, 'package.json')].map(newestChange),
  );
  // Vitest sets NODE_ENV=test, and Vite keeps a NODE_ENV it finds: React's development build, twice the size.
  if (newest > builtAt)
    execFileSync('npm', ['run', 'build', '--prefix', WEB], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
}

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}
