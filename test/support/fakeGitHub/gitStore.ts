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
/** One change of a create-tree request: a blob sha, inline content, or `sha: null` to delete. */
export type TreeChange = { path: string; mode: string; sha?: string | null; content?: string };

const sha1 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
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
      } else if (change.sha && this.blobs.has(change.sha)) {
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
