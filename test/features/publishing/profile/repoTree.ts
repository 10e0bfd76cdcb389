import { createHash } from 'node:crypto';
import type { TreeItem } from '../../../../src/integrations/github/port.ts';
import { loadParsers } from '../../../../src/features/publishing/profile/parsers.ts';
import {
  configFilesToRead,
  type Files,
  learn,
  sampleFilesToRead,
  type Tree,
} from '../../../../src/features/publishing/profile/learn.ts';

/** A tree listing of a file map as a recursive `git/get-tree` read gives it (folders included). */
export function treeOf(files: Record<string, string>, extra: TreeItem[] = []): Tree {
  const items: TreeItem[] = [];
  const folders = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    const bytes = Buffer.from(text, 'utf8');
    const sha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    items.push({ path, type: 'blob', mode: '100644', sha, size: bytes.length });
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  for (const folder of folders)
    items.push({ path: folder, type: 'tree', mode: '040000', sha: '0'.repeat(40), size: null });
  items.push(...extra);
  items.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { items, truncated: false };
}

/** Runs the learner's two reading steps over a file map, recording which paths it asked for. */
export async function learnFromFiles(files: Record<string, string>, extra: TreeItem[] = []) {
  const parsers = await loadParsers();
  const tree = treeOf(files, extra);
  const read: string[] = [];
  const sampled: Files = new Map();
  const take = (paths: string[]) => {
    for (const path of paths) {
      read.push(path);
      if (path in files) sampled.set(path, files[path]);
    }
  };
  take(configFilesToRead(tree));
  take(sampleFilesToRead(tree, sampled, parsers));
  return { ...learn(tree, sampled, parsers), read };
}
