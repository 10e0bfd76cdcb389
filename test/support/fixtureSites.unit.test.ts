import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { siteTest } from './fixtureSites.ts';

const saved = { ...process.env };
afterEach(() => {
  for (const key of ['INKSTREAM_SITES_DIR', 'INKSTREAM_TEST_HUGO', 'CI'])
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
});

test('on CI a missing fixture toolchain fails its real-build test instead of skipping it; elsewhere it is skipped', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'inkstream-no-sites-'));
  try {
    process.env.INKSTREAM_SITES_DIR = empty;
    process.env.INKSTREAM_TEST_HUGO = '/nonexistent/hugo';
    process.env.CI = 'true';
    expect(await siteTest('astro')).toEqual({
      skip: false,
      missing: `the astro fixture site is not installed in ${empty}: run scripts/install-fixture-sites.sh`,
    });
    expect(await siteTest('hugo')).toEqual({
      skip: false,
      missing: 'no /nonexistent/hugo on the PATH: apt-get install -y hugo',
    });
    process.env.CI = '';
    expect((await siteTest('docusaurus')).skip).toBe(true);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
