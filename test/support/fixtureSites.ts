import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The fixture sites of test/fixtures/sites, each with its own package.json and lockfile, installed
 * by scripts/install-fixture-sites.sh (run by .ci/run) into `INKSTREAM_SITES_DIR` (default
 * `$XDG_CACHE_HOME/inkstream-sites` or `~/.cache/inkstream-sites`), one folder per site and
 * lockfile hash. Hugo is Debian's `hugo`. On CI a missing toolchain fails the run; elsewhere its
 * test is skipped until the script (or `apt-get install hugo`) has run.
 */

export type SiteName = 'astro' | 'hugo' | 'docusaurus' | 'eleventy';

const FIXTURES = join(import.meta.dirname, '../fixtures/sites');
/** The folder of the fixture sites' sources. */
export const sitesRoot = FIXTURES;
export const sitesDir = (): string =>
  process.env.INKSTREAM_SITES_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'inkstream-sites');

const run = promisify(execFile);

/** The installed node_modules of an npm fixture site, or null when it is not installed for this lockfile. */
export function siteInstall(name: Exclude<SiteName, 'hugo'>): string | null {
  const lock = readFileSync(join(FIXTURES, name, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex').slice(0, 16);
  const folder = join(sitesDir(), `${name}-${hash}`);
  return existsSync(join(folder, '.installed')) ? join(folder, 'node_modules') : null;
}

/** Debian's hugo on the PATH (INKSTREAM_TEST_HUGO names another binary). */
const hugo = (): string => process.env.INKSTREAM_TEST_HUGO ?? 'hugo';
export async function hasHugo(): Promise<boolean> {
  try {
    await run(hugo(), ['version']);
    return true;
  } catch {
    return false;
  }
}

/** Astro needs Node ≥ 22.12: the tests run the sites with the project's Node 24, the one running them. */
const nodeIsRecentEnough = (): boolean => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
};

/** Why a toolchain cannot run here, or null when it can. On CI the reason fails the test instead of skipping it. */
export async function toolchainMissing(name: SiteName): Promise<string | null> {
  if (name === 'hugo')
    return (await hasHugo()) ? null : `no ${hugo()} on the PATH: apt-get install -y hugo`;
  if (!nodeIsRecentEnough()) return `Node ${process.versions.node} is older than 22.12`;
  return siteInstall(name)
    ? null
    : `the ${name} fixture site is not installed in ${sitesDir()}: run scripts/install-fixture-sites.sh`;
}

/**
 * How a site's test runs: skipped where its toolchain is missing, except on CI (`CI=true`), where
 * it runs and fails with `missing`, what to install.
 */
export async function siteTest(name: SiteName): Promise<{ skip: boolean; missing: string | null }> {
  const missing = await toolchainMissing(name);
  return { skip: missing !== null && process.env.CI !== 'true', missing };
}

/** A copy of the fixture site in a temporary folder, its installed node_modules linked in. */
export function siteCopy(name: SiteName): string {
  const folder = mkdtempSync(join(tmpdir(), `inkstream-site-${name}-`));
  cpSync(join(FIXTURES, name), folder, {
    recursive: true,
    filter: (source) => !/node_modules|package-lock\.json$/.test(source),
  });
  if (name !== 'hugo') symlinkSync(siteInstall(name)!, join(folder, 'node_modules'), 'dir');
  return folder;
}

/** Files laid over the site as the commit would: each at its repository path. */
export function layFiles(site: string, files: { path: string; content: string | Buffer }[]): void {
  for (const file of files) {
    const target = join(site, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

const BUILDS: Record<SiteName, { command: (site: string) => [string, string[]]; output: string }> =
  {
    astro: {
      command: (site) => [
        process.execPath,
        [join(site, 'node_modules/astro/bin/astro.mjs'), 'build'],
      ],
      output: 'dist',
    },
    hugo: { command: () => [hugo(), ['--destination', 'public']], output: 'public' },
    docusaurus: {
      command: (site) => [
        process.execPath,
        [join(site, 'node_modules/@docusaurus/core/bin/docusaurus.mjs'), 'build', '--no-minify'],
      ],
      output: 'build',
    },
    eleventy: {
      command: (site) => [process.execPath, [join(site, 'node_modules/@11ty/eleventy/cmd.cjs')]],
      output: '_site',
    },
  };

/** The folders a site's build writes at its root (Hugo's `resources/` holds processed images). */
export const siteOutputs = (name: SiteName): string[] =>
  name === 'hugo' ? [BUILDS.hugo.output, 'resources'] : [BUILDS[name].output];

/**
 * The site's own build, offline: telemetry and update checks off, and every HTTP(S) request a
 * Node process makes sent to a proxy that is not there. Resolves with the output folder; rejects
 * with the build's output when it fails.
 */
export async function buildSite(
  name: SiteName,
  site: string,
): Promise<{ output: string; log: string }> {
  const [file, args] = BUILDS[name].command(site);
  const dead = 'http://127.0.0.1:9';
  const { stdout, stderr } = await run(file, args, {
    cwd: site,
    maxBuffer: 20 * 1024 * 1024,
    timeout: 240_000,
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NODE_ENV: 'production',
      ASTRO_TELEMETRY_DISABLED: '1',
      NO_UPDATE_NOTIFIER: '1',
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: dead,
      HTTPS_PROXY: dead,
      npm_config_offline: 'true',
      HUGO_ENVIRONMENT: 'production',
    },
  });
  return { output: join(site, BUILDS[name].output), log: `${stdout}\n${stderr}` };
}
