import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  configFilesToRead,
  type Files,
  type LearnResult,
  learn,
  sampleFilesToRead,
  type Tree,
} from '../../src/features/publishing/profile/learn.ts';
import { loadParsers } from '../../src/features/publishing/profile/parsers.ts';
import type { TreeItem } from '../../src/integrations/github/port.ts';
import { type SiteName, siteOutputs, sitesRoot } from './fixtureSites.ts';

/**
 * A fixture site folder read from disk as the learner sees a repository through GitHub: the
 * recursive tree listing (blob SHAs as git computes them, folders, symlinks), without what a
 * repository would not hold (`node_modules`, the site's build output, dot folders), and the text
 * of the files the learner asks for, read only when it asks.
 */

const gitSha = (kind: 'blob', bytes: Buffer) =>
  createHash('sha1').update(`${kind} ${bytes.length}\0`).update(bytes).digest('hex');

/** Folder names never listed: installed packages, and every build output of the fixture sites. */
const skipped = (name: string, outputs: Set<string>) =>
  name === 'node_modules' || name.startsWith('.') || outputs.has(name);

export function readSiteTree(folder: string, outputs: string[] = []): Tree {
  const skip = new Set(outputs);
  const items: TreeItem[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      const stat = lstatSync(join(folder, path));
      if (stat.isSymbolicLink()) {
        const target = Buffer.from(readlinkSync(join(folder, path)), 'utf8');
        items.push({
          path,
          type: 'symlink',
          mode: '120000',
          sha: gitSha('blob', target),
          size: null,
        });
      } else if (stat.isDirectory()) {
        if (relative === '' ? skipped(entry.name, skip) : skipped(entry.name, new Set())) continue;
        // Git lists a folder by its tree SHA; the learner never reads it, so a stand-in will do.
        items.push({ path, type: 'tree', mode: '040000', sha: '0'.repeat(40), size: null });
        walk(path);
      } else if (stat.isFile()) {
        const bytes = readFileSync(join(folder, path));
        const mode = stat.mode & 0o111 ? '100755' : '100644';
        items.push({ path, type: 'blob', mode, sha: gitSha('blob', bytes), size: bytes.length });
      }
    }
  };
  walk('');
  // GitHub's recursive tree lists paths in byte order.
  items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { items, truncated: false };
}

/** The learner run over a site folder with its two reading steps, as learnContentProfile runs it. */
export async function learnFolder(
  folder: string,
  outputs: string[] = [],
): Promise<LearnResult & { read: string[] }> {
  const parsers = await loadParsers();
  const tree = readSiteTree(folder, outputs);
  const blobs = new Set(tree.items.filter((i) => i.type === 'blob').map((i) => i.path));
  const files: Files = new Map();
  const read: string[] = [];
  const take = (paths: string[]) => {
    for (const path of paths) {
      read.push(path);
      if (blobs.has(path)) files.set(path, readFileSync(join(folder, path), 'utf8'));
    }
  };
  take(configFilesToRead(tree));
  take(sampleFilesToRead(tree, files, parsers));
  return { ...learn(tree, files, parsers), read };
}

/** The profile the learner makes of a fixture site under test/fixtures/sites. */
export function learnSite(name: SiteName): Promise<LearnResult & { read: string[] }> {
  return learnFolder(join(sitesRoot, name), siteOutputs(name));
}
