import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The layering DESIGN.md draws, as data: a file may import files of its own folder, of a lower
 * tier, or of another folder of its own tier; never upward. `projections/` is narrower still.
 */
const TIERS: Record<string, number> = {
  core: 0,
  eventstore: 1,
  readstore: 1,
  mdx: 1,
  domain: 2,
  consumers: 2,
  integrations: 2,
  http: 2,
  'platform.ts': 2,
  projections: 2,
  features: 3,
  app: 4,
  cli: 5,
  'cli.ts': 5,
  'main.ts': 5,
};

/** What a read model may import: the stream types, the read store and the bottom of the tree. */
const PROJECTIONS_MAY_IMPORT = new Set([
  'domain',
  'readstore',
  'eventstore',
  'core',
  'projections',
]);

export type SourceFiles = Map<string, string>;
export type Violation = { file: string; imports: string; why: string };

/** `src/features/x/y.ts` → `features`; `projections/a.ts` → `projections`; `src/main.ts` → `main.ts`. */
export function folderOf(path: string): string | null {
  if (path.startsWith('projections/')) return 'projections';
  if (!path.startsWith('src/')) return null;
  return path.slice('src/'.length).split('/')[0];
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The relative imports of one file, resolved to paths from the repository root. */
export function importsOf(path: string, source: string): string[] {
  return [...source.matchAll(IMPORT)].map((match) =>
    normalize(join(dirname(path), match[1] ?? match[2])),
  );
}

export function importViolations(files: SourceFiles): Violation[] {
  const violations: Violation[] = [];
  for (const [file, source] of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const target of importsOf(file, source)) {
      const to = folderOf(target);
      if (!to || to === from) continue;
      if (TIERS[to] === undefined || TIERS[from] === undefined)
        violations.push({ file, imports: target, why: `no tier is declared for ${from} or ${to}` });
      else if (TIERS[to] > TIERS[from])
        violations.push({ file, imports: target, why: `${from} may not import ${to} (upward)` });
      else if (from === 'projections' && !PROJECTIONS_MAY_IMPORT.has(to))
        violations.push({
          file,
          imports: target,
          why: `projections import only domain/, readstore/, eventstore/ and core/, not ${to}/`,
        });
    }
  }
  return violations;
}

/** Files that import each other in a circle, each circle once (Tarjan's strongly connected components). */
export function importCycles(files: SourceFiles): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files)
    graph.set(
      file,
      importsOf(file, source).filter((target) => files.has(target)),
    );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Every TypeScript file under `src/` and `projections/`, keyed by its path from the repository root. */
export function readSourceFiles(root: string): SourceFiles {
  const files: SourceFiles = new Map();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name))
        files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'projections'));
  return files;
}
