import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const loadBrowserSupport = (env: Record<string, string>) =>
  run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
  const { hasChromium } = await import(${JSON.stringify(join(root, 'test/support/browser.ts'))});
  console.log('hasChromium=' + hasChromium);
`,
    ],
    { cwd: root, env: { ...process.env, ...env } },
  );

test('on CI a missing browser fails the browser tests instead of skipping them; elsewhere they are skipped', async () => {
  const nowhere = { INKSTREAM_TEST_CHROMIUM: '/nonexistent/chromium' };
  await expect(loadBrowserSupport({ ...nowhere, CI: 'true' })).rejects.toMatchObject({
    stderr: expect.stringContaining(
      "No browser at /nonexistent/chromium: .ci/run installs Debian's chromium package.",
    ),
  });
  expect((await loadBrowserSupport({ ...nowhere, CI: '' })).stdout).toContain('hasChromium=false');
}, 60_000);
