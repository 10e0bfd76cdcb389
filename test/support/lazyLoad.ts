import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');

export type FirstUse = { atStart: string[]; afterUse: string[]; result: unknown };

/**
 * A real embedded start (`startInkstream`) in a fresh Node process, since this one's module cache
 * is shared by other tests, then `firstUse`: which of `packages` the start loaded, which were loaded
 * once `firstUse` ran, and what it returned. `firstUse` is the body of an async function given
 * `inkstream` (the running TestInkstream) and `root` (the repository, for imports of src/ and test/).
 * `beforeStart`, module code run before the start, declares `startOptions` for it (and may start
 * fakes `firstUse` then uses). Every module a process loads (import or require) is seen through a
 * module.registerHooks load hook.
 */
export async function loadsOfFirstUse(
  packages: readonly string[],
  firstUse: string,
  options: { beforeStart?: string } = {},
): Promise<FirstUse> {
  const script = `
import { registerHooks } from 'node:module';
const urls = new Set();
registerHooks({ load(url, context, next) { urls.add(url); return next(url, context); } });
const packages = ${JSON.stringify(packages)};
const loaded = () => packages.filter((name) => [...urls].some((url) => url.includes('/node_modules/' + name + '/')));
const root = ${JSON.stringify(root)};
const { startInkstream } = await import(root + '/test/support/inkstream.ts');
${options.beforeStart ?? 'const startOptions = {};'}
const inkstream = await startInkstream(startOptions);
const atStart = loaded();
const result = await (async () => { ${firstUse} })();
const afterUse = loaded();
await inkstream.close();
console.log('FIRST_USE ' + JSON.stringify({ atStart, afterUse, result }));
process.exit(0);
`;
  // A file, not -e: --input-type=module would pass on to the server's worker threads and break their eval'd code.
  const dir = mkdtempSync(join(tmpdir(), 'ink-first-use-'));
  writeFileSync(join(dir, 'firstUse.mjs'), script);
  const { stdout } = await run(process.execPath, [join(dir, 'firstUse.mjs')], {
    cwd: root,
    timeout: 120_000,
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  const line = stdout.split('\n').find((text) => text.startsWith('FIRST_USE '));
  if (!line) throw new Error(`the child printed no result:\n${stdout}`);
  return JSON.parse(line.slice('FIRST_USE '.length)) as FirstUse;
}
