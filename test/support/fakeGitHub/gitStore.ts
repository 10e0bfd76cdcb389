import { createHash } from 'node:crypto';

/**
 * The object database of one fake repository. Blob shas are real git shas; trees are kept flat
 * (path → blob) and hashed over their sorted entries, commits over their text — content-addressed
 * like git, so creating the same tree twice yields the same sha, as on GitHub.
 */

export type TreeEntry = { mode: string; sha: string };
export type GitSignature = { name: string; email: string; date: string };
export type GitCommit = {
  sha: string;
  treeSha: string;
  message: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
};
/** One change of a create-tree request: a blob sha, inline content, or `sha: null` to delete. A submodule (mode 160000) names a commit of another repository. */
export type TreeChange = { path: string; mode: string; sha?: string | null; content?: string };

const sha1 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

export const SYMLINK = '120000';
export const SUBMODULE = '160000';

/** A `git/get-tree` item: the flat tree's paths with their folders listed as trees, as git does. */
export type ListedTreeItem = {
  path: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size?: number;
};

export class GitStore {
  readonly blobs = new Map<string, Buffer>();
  readonly trees = new Map<string, Map<string, TreeEntry>>();
  readonly commits = new Map<string, GitCommit>();

  putBlob(content: Buffer): string {
    const sha = sha1(`blob ${content.length}\0`, content);
    this.blobs.set(sha, content);
    return sha;
  }

  putTree(entries: Map<string, TreeEntry>): string {
    const text = [...entries.keys()]
      .sort()
      .map((path) => `${entries.get(path)!.mode} ${path}\0${entries.get(path)!.sha}`)
      .join('\n');
    const sha = sha1(`tree ${Buffer.byteLength(text)}\0`, text);
    this.trees.set(sha, new Map(entries));
    return sha;
  }

  /** Applies changes on top of `baseTreeSha` (or an empty tree). Throws on an unknown blob. */
  buildTree(baseTreeSha: string | undefined, changes: TreeChange[]): string {
    const entries = new Map(baseTreeSha ? this.trees.get(baseTreeSha) : undefined);
    for (const change of changes) {
      if (change.content !== undefined) {
        entries.set(change.path, {
          mode: change.mode,
          sha: this.putBlob(Buffer.from(change.content, 'utf8')),
        });
      } else if (change.sha === null) {
        entries.delete(change.path);
      } else if (change.sha && (this.blobs.has(change.sha) || change.mode === SUBMODULE)) {
        entries.set(change.path, { mode: change.mode, sha: change.sha });
      } else {
        throw new Error(`unknown blob ${change.sha} for ${change.path}`);
      }
    }
    return this.putTree(entries);
  }

  putCommit(input: Omit<GitCommit, 'sha'>): GitCommit {
    const sign = (s: GitSignature) =>
      `${s.name} <${s.email}> ${Math.floor(Date.parse(s.date) / 1000)} +0000`;
    const text = [
      `tree ${input.treeSha}`,
      ...input.parents.map((p) => `parent ${p}`),
      `author ${sign(input.author)}`,
      `committer ${sign(input.committer)}`,
      '',
      input.message,
    ].join('\n');
    const commit = { ...input, sha: sha1(`commit ${Buffer.byteLength(text)}\0`, text) };
    this.commits.set(commit.sha, commit);
    return commit;
  }

  /** The blob at `path` in the tree of `commitSha`, or null. */
  readFile(commitSha: string, path: string): { sha: string; content: Buffer } | null {
    const commit = this.commits.get(commitSha);
    const entry = commit && this.trees.get(commit.treeSha)?.get(path);
    return entry ? { sha: entry.sha, content: this.blobs.get(entry.sha)! } : null;
  }

  /** Every path and its content in the tree of `commitSha`. */
  files(commitSha: string): Map<string, Buffer> {
    const tree =
      this.trees.get(this.commits.get(commitSha)?.treeSha ?? '') ?? new Map<string, TreeEntry>();
    return new Map([...tree].map(([path, entry]) => [path, this.blobs.get(entry.sha)!]));
  }

  /**
   * The listing of `treeSha` as `GET git/trees/{sha}` gives it: only the root's own entries, or
   * (`recursive`) every path with its folders, cut at `limit` entries (`truncated`, as GitHub does
   * above 100,000). Folder shas are hashed over their listing, stable for the same content.
   */
  listTree(
    treeSha: string,
    recursive: boolean,
    limit: number,
  ): { items: ListedTreeItem[]; truncated: boolean } | null {
    const tree = this.trees.get(treeSha);
    if (!tree) return null;
    const folders = new Map<string, string[]>();
    for (const [path, entry] of tree) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const folder = parts.slice(0, i).join('/');
        const list = folders.get(folder) ?? [];
        list.push(`${entry.mode} ${path} ${entry.sha}`);
        folders.set(folder, list);
      }
    }
    const all: ListedTreeItem[] = [];
    for (const [folder, lines] of folders)
      all.push({
        path: folder,
        mode: '040000',
        type: 'tree',
        sha: sha1('tree\0', lines.sort().join('\n')),
      });
    for (const [path, entry] of tree) {
      const blob = this.blobs.get(entry.sha);
      all.push(
        entry.mode === SUBMODULE
          ? { path, mode: entry.mode, type: 'commit', sha: entry.sha }
          : { path, mode: entry.mode, type: 'blob', sha: entry.sha, size: blob?.length ?? 0 },
      );
    }
    all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const listed = recursive ? all : all.filter((item) => !item.path.includes('/'));
    return { items: listed.slice(0, limit), truncated: listed.length > limit };
  }

  /** First-parent history from `commitSha`, newest first. */
  history(commitSha: string): GitCommit[] {
    const out: GitCommit[] = [];
    for (let sha: string | undefined = commitSha; sha; sha = this.commits.get(sha)?.parents[0]) {
      const commit = this.commits.get(sha);
      if (!commit) break;
      out.push(commit);
    }
    return out;
  }

  isAncestor(ancestor: string, of: string): boolean {
    const seen = new Set<string>();
    const queue = [of];
    while (queue.length) {
      const sha = queue.pop()!;
      if (sha === ancestor) return true;
      if (seen.has(sha)) continue;
      seen.add(sha);
      queue.push(...(this.commits.get(sha)?.parents ?? []));
    }
    return false;
  }
}
