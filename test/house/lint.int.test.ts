import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, test } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const biome = join(root, 'node_modules', '.bin', 'biome');

let planted: string | null = null;
afterEach(async () => {
  if (planted) await rm(planted, { recursive: true, force: true });
  planted = null;
});

/** Runs the lint command of `npm test` (npm run lint) on one folder, with the project's configuration. */
async function lint(folder: string): Promise<{ failed: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(biome, ['check', '--error-on-warnings', folder], {
      cwd: root,
    });
    return { failed: false, output: stdout + stderr };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: stdout + stderr };
  }
}

async function plant(name: string, text: string): Promise<string> {
  planted = await mkdtemp(join(root, 'test', 'house', 'planted-'));
  await writeFile(join(planted, name), text);
  return planted;
}

test('npm test fails on a file the formatter would change', async () => {
  const folder = await plant('wide.ts', 'export const x = {a:1,\n    b:2}\n');
  const result = await lint(folder);
  expect(result.failed).toBe(true);
  expect(result.output).toContain('Formatter would have printed');
});

test('npm test fails on a lint violation in a well-formatted file', async () => {
  const folder = await plant('debugging.ts', 'export function f(): void {\n  debugger;\n}\n');
  const result = await lint(folder);
  expect(result.failed).toBe(true);
  expect(result.output).toContain('lint/suspicious/noDebugger');
});

test('the same command passes a clean file', async () => {
  const folder = await plant(
    'clean.ts',
    'export const sum = (a: number, b: number): number => a + b;\n',
  );
  expect(await lint(folder)).toMatchObject({ failed: false });
});
