import { join } from 'node:path';
import { expect, test } from 'vitest';
import { importCycles, importViolations, readSourceFiles } from './importDirection.ts';

const tree = readSourceFiles(join(import.meta.dirname, '..', '..'));

test('imports run downward only: app → features → domain, consumers, integrations, http → eventstore, readstore, mdx → core', () => {
  expect(importViolations(tree)).toEqual([]);
});

test('projections import only domain/, readstore/, eventstore/ and core/', () => {
  const projections = [...tree.keys()].filter((path) => path.startsWith('projections/'));
  expect(projections.length).toBeGreaterThan(10);
  expect(importViolations(new Map(projections.map((path) => [path, tree.get(path)!])))).toEqual([]);
});

test('no files import each other in a circle', () => {
  expect(importCycles(tree)).toEqual([]);
});

test('a planted upward import fails the check, naming the file and the rule', () => {
  const planted = new Map(tree);
  planted.set('src/core/planted.ts', "import { x } from '../features/topics/api.ts';\n");
  planted.set(
    'projections/planted.ts',
    "import type { Y } from '../src/integrations/llm/port.ts';\nconst z = await import('../src/app/start.ts');\n",
  );
  expect(importViolations(planted)).toEqual([
    {
      file: 'src/core/planted.ts',
      imports: 'src/features/topics/api.ts',
      why: 'core may not import features (upward)',
    },
    {
      file: 'projections/planted.ts',
      imports: 'src/integrations/llm/port.ts',
      why: 'projections import only domain/, readstore/, eventstore/ and core/, not integrations/',
    },
    {
      file: 'projections/planted.ts',
      imports: 'src/app/start.ts',
      why: 'projections may not import app (upward)',
    },
  ]);
});

test('a planted circle is found', () => {
  const planted = new Map(tree);
  planted.set('src/core/a.ts', "import { b } from './b.ts';\n");
  planted.set('src/core/b.ts', "export { a } from './a.ts';\n");
  expect(importCycles(planted)).toEqual([['src/core/a.ts', 'src/core/b.ts']]);
});
