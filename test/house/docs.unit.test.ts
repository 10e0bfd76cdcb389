import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';

/**
 * The documents kept by a test (issue 29): the README stays a newcomer's page, every variable the
 * code reads is in docs/configuration.md and .env.example, and no relative link leads nowhere.
 * Each check is a pure function over texts, shown failing on a planted fault before it runs on
 * the tree.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const README_MAX_BYTES = 12_500;
/** Read by Node itself, not by src/: documented because a self-signed webhook receiver needs it. */
const NODE_VARIABLES = ['NODE_EXTRA_CA_CERTS'];

type SourceFile = { path: string; text: string };

/** Every `INKSTREAM_*` name in the sources, less the ones declared as constants (e.g. a PR marker). */
function inkstreamVariablesIn(files: SourceFile[]): string[] {
  const names = new Set<string>();
  const constants = new Set<string>();
  for (const { text } of files) {
    for (const [name] of text.matchAll(/\bINKSTREAM_[A-Z0-9_]+\b/g)) names.add(name);
    for (const [, name] of text.matchAll(/\bconst\s+(INKSTREAM_[A-Z0-9_]+)\s*[=:]/g))
      constants.add(name);
  }
  return [...names].filter((name) => !constants.has(name)).sort();
}

/** The keys of the configuration schema (`const Env = z.object({ KEY: … })` in core/config.ts). */
function schemaVariablesIn(configSource: string): string[] {
  const start = configSource.indexOf('const Env = z.object({');
  if (start < 0) throw new Error('core/config.ts has no `const Env = z.object({`');
  const body = configSource.slice(start, configSource.indexOf('\n});', start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(([, name]) => name).sort();
}

/** Variables named in the first cell of a Markdown table row. */
function variablesInTables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!firstCell) continue;
    for (const [, name] of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(name);
  }
  return names;
}

/** `.env.example`: the commented-out `# NAME=default` lines, and any line that would set something. */
function readEnvExample(text: string): { defaults: Map<string, string>; active: string[] } {
  const defaults = new Map<string, string>();
  const active: string[] = [];
  for (const line of text.split('\n')) {
    const commented = /^#\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (commented) defaults.set(commented[1], commented[2]);
    else if (line.trim() !== '' && !line.startsWith('#')) active.push(line);
  }
  return { defaults, active };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

type Document = { path: string; text: string };

/**
 * Relative links (`[text](target)`, `![alt](target)`) outside code that lead to no file, or to a
 * Markdown heading that is not there. Paths are relative to the repository root.
 */
function brokenLinks(documents: Document[], exists: (path: string) => boolean): string[] {
  const byPath = new Map(documents.map((document) => [document.path, document.text]));
  const broken: string[] = [];
  for (const { path, text } of documents) {
    const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#', 2);
      const resolved = file === '' ? path : join(dirname(path), decodeURIComponent(file));
      if (!exists(resolved)) {
        broken.push(`${path}: ${target} (no ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith('.md')) {
        const markdown = byPath.get(resolved);
        if (markdown !== undefined && !anchorsOf(markdown).has(anchor.toLowerCase()))
          broken.push(`${path}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
  }
  return broken;
}

function sourceFiles(folder: string): SourceFile[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

function documentsOfTheTree(): Document[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs]
    .filter((path) => existsSync(join(ROOT, path)))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

const existsInTree = (path: string) => {
  const full = join(ROOT, path);
  return !relative(ROOT, full).startsWith('..') && existsSync(full);
};

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function variablesTheCodeReads(): string[] {
  const fromSources = inkstreamVariablesIn(sourceFiles('src'));
  const fromSchema = schemaVariablesIn(read('src/core/config.ts'));
  return [...new Set([...fromSources, ...fromSchema, ...NODE_VARIABLES])].sort();
}

describe('the checks catch what they are for', () => {
  test('a variable read in the code but documented nowhere is found', () => {
    const names = inkstreamVariablesIn([
      { path: 'a.ts', text: 'config.INKSTREAM_NEW_KNOB; config.INKSTREAM_PORT_X' },
      { path: 'b.ts', text: "export const INKSTREAM_MARKER = '<!-- inkstream';" },
    ]);
    expect(names).toEqual(['INKSTREAM_NEW_KNOB', 'INKSTREAM_PORT_X']);
    const documented = variablesInTables(
      '| `INKSTREAM_PORT_X` | `1` | … |\nINKSTREAM_NEW_KNOB in prose',
    );
    expect(names.filter((name) => !documented.has(name))).toEqual(['INKSTREAM_NEW_KNOB']);
  });

  test('the schema keys of core/config.ts are read, nested keys are not', () => {
    const keys = schemaVariablesIn(
      'const Env = z.object({\n  PORT: z.coerce.number(),\n  HOST: z\n    .string(),\n    NESTED: 1,\n});\n',
    );
    expect(keys).toEqual(['HOST', 'PORT']);
  });

  test('.env.example: a line that would set something is found, commented defaults are read', () => {
    const { defaults, active } = readEnvExample('# Port.\n# PORT=8080\nHOST=0.0.0.0\n\n# X=\n');
    expect(active).toEqual(['HOST=0.0.0.0']);
    expect([...defaults]).toEqual([
      ['PORT', '8080'],
      ['X', ''],
    ]);
  });

  test('a link to a missing file or heading is found; links in code, URLs and good links are not', () => {
    const documents = [
      {
        path: 'README.md',
        text: [
          '[gone](docs/gone.md) ![shot](docs/images/none.png) [ok](docs/a.md#the-heading)',
          '[bad anchor](docs/a.md#no-such) [web](https://example.com/x.md) `[code](nope.md)`',
          '```\n[fenced](nope.md)\n```',
        ].join('\n'),
      },
      { path: 'docs/a.md', text: '# A\n\n## The heading\n\n[up](../README.md) [here](#a)' },
    ];
    const exists = (path: string) => ['README.md', 'docs/a.md'].includes(path);
    expect(brokenLinks(documents, exists)).toEqual([
      'README.md: docs/gone.md (no docs/gone.md)',
      'README.md: docs/images/none.png (no docs/images/none.png)',
      'README.md: docs/a.md#no-such (no heading #no-such in docs/a.md)',
    ]);
  });

  test("headings' anchors follow GitHub's: punctuation dropped, repeats numbered", () => {
    const anchors = anchorsOf(
      '# Running with Docker Compose: the secret key\n## `npm ci` warnings\n## Notes\n## Notes',
    );
    expect([...anchors]).toEqual([
      'running-with-docker-compose-the-secret-key',
      'npm-ci-warnings',
      'notes',
      'notes-1',
    ]);
  });
});

describe('the tree', () => {
  test(`README.md is at most ${README_MAX_BYTES} bytes, with the set-up commands in its first screen`, () => {
    const readme = readFileSync(join(ROOT, 'README.md'));
    expect(readme.byteLength).toBeLessThanOrEqual(README_MAX_BYTES);
    const firstScreen = readme.toString('utf8').split('\n').slice(0, 30).join('\n');
    expect(firstScreen).toContain('npm ci && npm start');
    expect(firstScreen).toContain('npm test');
  });

  test('every variable the code reads is in docs/configuration.md', () => {
    const documented = variablesInTables(read('docs/configuration.md'));
    const missing = variablesTheCodeReads().filter((name) => !documented.has(name));
    expect(missing).toEqual([]);
  });

  test('every variable the code reads is in .env.example, and the file sets nothing', () => {
    const { defaults, active } = readEnvExample(read('.env.example'));
    expect(active).toEqual([]);
    const missing = variablesTheCodeReads().filter((name) => !defaults.has(name));
    expect(missing).toEqual([]);
  });

  test(".env.example's defaults are the configuration's own", () => {
    const { defaults } = readEnvExample(read('.env.example'));
    const given = Object.fromEntries([...defaults].filter(([, value]) => value !== ''));
    const withDefaults = loadConfig(given);
    const unset = loadConfig({});
    for (const [name, value] of Object.entries(unset)) {
      if (value === undefined || !(name in given)) continue;
      expect({ [name]: withDefaults[name as keyof typeof withDefaults] }).toEqual({
        [name]: value,
      });
    }
  });

  test('no relative link in README.md, CONTRIBUTING.md or docs/*.md leads nowhere', () => {
    expect(brokenLinks(documentsOfTheTree(), existsInTree)).toEqual([]);
  });

  test('the README screenshot stays small', () => {
    expect(statSync(join(ROOT, 'docs/images/projects.png')).size).toBeLessThan(200_000);
  });
});
