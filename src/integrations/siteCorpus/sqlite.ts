import { createHash } from 'node:crypto';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { ftsQuery, splitPassages } from './passages.ts';
import type {
  ClaimedUrl,
  CorpusCounts,
  CorpusPage,
  CorpusRun,
  PageState,
  PassageHit,
  QueuedUrl,
  ReadPage,
  SiteCorpusStore,
} from './port.ts';

/** Beside the embedded store in DATA_DIR: a cache of the web, rebuilt by crawling again. */
export const SITE_CORPUS_FILE = 'site-corpus.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS corpus_runs (
  project_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL,
  finished_at TEXT, notes TEXT NOT NULL DEFAULT '[]', sitemap_done INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS corpus_pages (
  project_id TEXT NOT NULL, url TEXT NOT NULL, state TEXT NOT NULL, priority INTEGER NOT NULL,
  depth INTEGER NOT NULL, lastmod TEXT, read_lastmod TEXT, etag TEXT, last_modified TEXT, hash TEXT,
  title TEXT NOT NULL DEFAULT '', description TEXT, headings TEXT NOT NULL DEFAULT '[]', reason TEXT,
  fetched_at TEXT, UNIQUE (project_id, url));
CREATE INDEX IF NOT EXISTS corpus_pages_queue ON corpus_pages (project_id, state, priority);
CREATE INDEX IF NOT EXISTS corpus_pages_hash ON corpus_pages (hash, project_id);
CREATE TABLE IF NOT EXISTS corpus_texts (
  hash TEXT PRIMARY KEY, text TEXT NOT NULL, first_passage INTEGER NOT NULL, passages INTEGER NOT NULL
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS corpus_passages USING fts5(
  heading, body, hash UNINDEXED, tokenize = 'porter unicode61');
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const emptyCounts = (): CorpusCounts => ({
  known: 0,
  read: 0,
  unchanged: 0,
  failed: 0,
  skipped: 0,
  queued: 0,
});

const pageOf = (row: Record<string, unknown>): CorpusPage => ({
  url: String(row.url),
  state: row.state as PageState,
  title: String(row.title),
  description: text(row.description),
  headings: JSON.parse(String(row.headings)) as string[],
  hash: text(row.hash),
  reason: text(row.reason),
  fetchedAt: text(row.fetched_at),
});

/**
 * The corpus in its own SQLite file (WAL). Every method is synchronous and each write one
 * transaction, so no transaction spans an await and a kill -9 leaves whole rows only.
 */
export function openSqliteSiteCorpus(path: string): SiteCorpusStore {
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(SCHEMA);
  const prepared = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const statement = (sql: string) => {
    let found = prepared.get(sql);
    if (!found) prepared.set(sql, (found = db.prepare(sql)));
    return found;
  };
  const all = (sql: string, ...params: SQLInputValue[]) =>
    statement(sql).all(...params) as Record<string, unknown>[];
  const get = (sql: string, ...params: SQLInputValue[]) =>
    statement(sql).get(...params) as Record<string, unknown> | undefined;
  const run = (sql: string, ...params: SQLInputValue[]) => statement(sql).run(...params);
  const transaction = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };

  const counts = (projectId: string): CorpusCounts => {
    const result = emptyCounts();
    for (const row of all(
      'SELECT state, count(*) AS n FROM corpus_pages WHERE project_id = ? GROUP BY state',
      projectId,
    )) {
      const n = Number(row.n);
      result.known += n;
      const state = row.state as PageState;
      if (state === 'in_flight' || state === 'queued') result.queued += n;
      else result[state] += n;
    }
    return result;
  };

  const runOf = (projectId: string): CorpusRun | null => {
    const row = get('SELECT * FROM corpus_runs WHERE project_id = ?', projectId);
    if (!row) return null;
    return {
      projectId,
      runId: String(row.run_id),
      status: row.status === 'done' ? 'done' : 'running',
      startedAt: String(row.started_at),
      finishedAt: text(row.finished_at),
      notes: JSON.parse(String(row.notes)) as string[],
      sitemapDone: Number(row.sitemap_done) === 1,
      counts: counts(projectId),
    };
  };

  const storeText = (page: ReadPage): string => {
    const hash = sha256(page.text);
    if (get('SELECT 1 AS found FROM corpus_texts WHERE hash = ?', hash)) return hash;
    const passages = splitPassages(page.title, page.text);
    const first = Number(
      get('SELECT coalesce(max(rowid), 0) + 1 AS next FROM corpus_passages')?.next,
    );
    passages.forEach((passage, index) =>
      run(
        'INSERT INTO corpus_passages (rowid, heading, body, hash) VALUES (?, ?, ?, ?)',
        first + index,
        passage.heading,
        passage.body,
        hash,
      ),
    );
    run(
      'INSERT INTO corpus_texts (hash, text, first_passage, passages) VALUES (?, ?, ?, ?)',
      hash,
      page.text,
      first,
      passages.length,
    );
    return hash;
  };

  const setState = (
    projectId: string,
    url: string,
    state: PageState,
    reason: string | null,
    at: string | null,
  ) =>
    run(
      'UPDATE corpus_pages SET state = ?, reason = ?, fetched_at = coalesce(?, fetched_at) WHERE project_id = ? AND url = ?',
      state,
      reason,
      at,
      projectId,
      url,
    );

  return {
    startRun(projectId, runId, at) {
      transaction(() => {
        const current = get('SELECT run_id FROM corpus_runs WHERE project_id = ?', projectId);
        if (current && current.run_id === runId) {
          run(
            "UPDATE corpus_pages SET state = 'queued' WHERE project_id = ? AND state = 'in_flight'",
            projectId,
          );
          return;
        }
        run(
          `INSERT INTO corpus_runs (project_id, run_id, status, started_at) VALUES (?, ?, 'running', ?)
           ON CONFLICT (project_id) DO UPDATE SET run_id = excluded.run_id, status = 'running',
             started_at = excluded.started_at, finished_at = NULL, notes = '[]', sitemap_done = 0`,
          projectId,
          runId,
          at,
        );
        run(
          "UPDATE corpus_pages SET state = 'queued', lastmod = NULL, reason = NULL WHERE project_id = ?",
          projectId,
        );
      });
      return runOf(projectId)!;
    },
    run: runOf,
    finishedRuns(finishedBy, limit) {
      return all(
        "SELECT project_id, finished_at FROM corpus_runs WHERE status = 'done' AND finished_at <= ? ORDER BY finished_at LIMIT ?",
        finishedBy,
        limit,
      ).map((row) => ({ projectId: String(row.project_id), finishedAt: String(row.finished_at) }));
    },
    markSitemapDone(projectId) {
      run('UPDATE corpus_runs SET sitemap_done = 1 WHERE project_id = ?', projectId);
    },
    addNote(projectId, note) {
      transaction(() => {
        const row = get('SELECT notes FROM corpus_runs WHERE project_id = ?', projectId);
        const notes = row ? (JSON.parse(String(row.notes)) as string[]) : [];
        if (notes.includes(note) || notes.length >= 20) return;
        run(
          'UPDATE corpus_runs SET notes = ? WHERE project_id = ?',
          JSON.stringify([...notes, note]),
          projectId,
        );
      });
    },
    finishRun(projectId, at) {
      transaction(() => {
        run(
          "UPDATE corpus_runs SET status = 'done', finished_at = ? WHERE project_id = ?",
          at,
          projectId,
        );
        // Texts no page names any more go, with their passages.
        for (const row of all(
          'SELECT hash, first_passage, passages FROM corpus_texts t WHERE NOT EXISTS (SELECT 1 FROM corpus_pages p WHERE p.hash = t.hash)',
        )) {
          const first = Number(row.first_passage);
          run(
            'DELETE FROM corpus_passages WHERE rowid BETWEEN ? AND ?',
            first,
            first + Number(row.passages) - 1,
          );
          run('DELETE FROM corpus_texts WHERE hash = ?', String(row.hash));
        }
      });
      return runOf(projectId)!;
    },
    enqueue(projectId, urls, cap = Number.POSITIVE_INFINITY) {
      return transaction(() => {
        let added = 0;
        let refused = 0;
        let known = Number(
          get('SELECT count(*) AS n FROM corpus_pages WHERE project_id = ?', projectId)?.n,
        );
        for (const entry of urls) {
          const updated = run(
            'UPDATE corpus_pages SET lastmod = coalesce(?, lastmod) WHERE project_id = ? AND url = ?',
            entry.lastmod ?? null,
            projectId,
            entry.url,
          );
          if (Number(updated.changes) > 0) continue;
          if (known >= cap) {
            refused += 1;
            continue;
          }
          run(
            `INSERT INTO corpus_pages (project_id, url, state, priority, depth, lastmod) VALUES (?, ?, 'queued', ?, ?, ?)`,
            projectId,
            entry.url,
            entry.priority,
            entry.depth,
            entry.lastmod ?? null,
          );
          added += 1;
          known += 1;
        }
        return { added, refused };
      });
    },
    known(projectId) {
      return Number(
        get('SELECT count(*) AS n FROM corpus_pages WHERE project_id = ?', projectId)?.n,
      );
    },
    claim(projectId, limit) {
      return transaction(() => {
        const rows = all(
          `SELECT url, depth, etag, last_modified, lastmod, read_lastmod, hash FROM corpus_pages
           WHERE project_id = ? AND state = 'queued' ORDER BY priority, rowid LIMIT ?`,
          projectId,
          limit,
        );
        for (const row of rows)
          run(
            "UPDATE corpus_pages SET state = 'in_flight' WHERE project_id = ? AND url = ?",
            projectId,
            String(row.url),
          );
        return rows.map(
          (row): ClaimedUrl => ({
            url: String(row.url),
            depth: Number(row.depth),
            etag: text(row.etag),
            lastModified: text(row.last_modified),
            lastmod: text(row.lastmod),
            readLastmod: text(row.read_lastmod),
            hash: text(row.hash),
          }),
        );
      });
    },
    recordRead(projectId, page, lastmod, at) {
      return transaction(() => {
        const hash = storeText(page);
        const before = get(
          'SELECT hash FROM corpus_pages WHERE project_id = ? AND url = ?',
          projectId,
          page.url,
        );
        // A full answer with the text already held counts as unchanged: nothing new was learned.
        const state = before?.hash === hash ? 'unchanged' : 'read';
        run(
          `UPDATE corpus_pages SET state = ?, reason = NULL, fetched_at = ?, hash = ?, title = ?, description = ?,
             headings = ?, etag = ?, last_modified = ?, read_lastmod = ? WHERE project_id = ? AND url = ?`,
          state,
          at,
          hash,
          page.title,
          page.description,
          JSON.stringify(page.headings),
          page.etag,
          page.lastModified,
          lastmod,
          projectId,
          page.url,
        );
        return hash;
      });
    },
    recordUnchanged(projectId, url, at) {
      setState(projectId, url, 'unchanged', null, at);
    },
    recordFailed(projectId, url, reason, at) {
      setState(projectId, url, 'failed', reason.slice(0, 500), at);
    },
    recordSkipped(projectId, url, reason) {
      setState(projectId, url, 'skipped', reason.slice(0, 500), null);
    },
    pageText(projectId, url) {
      const row = get(
        `SELECT t.text FROM corpus_pages p JOIN corpus_texts t ON t.hash = p.hash
         WHERE p.project_id = ? AND p.url = ? AND p.state IN ('read', 'unchanged')`,
        projectId,
        url,
      );
      return row ? String(row.text) : null;
    },
    pages(projectId, options) {
      return all(
        `SELECT url, state, title, description, headings, hash, reason, fetched_at FROM corpus_pages
         WHERE project_id = ? AND url > ? ORDER BY url LIMIT ?`,
        projectId,
        options.afterUrl ?? '',
        options.limit,
      ).map(pageOf);
    },
    search(projectId, query, options) {
      const match = ftsQuery(query, 12, options.anyWord);
      if (!match) return [];
      return all(
        `SELECT p.url, p.title, p.state, p.description, p.headings, p.reason, p.fetched_at,
           f.heading, f.body, f.hash FROM corpus_passages f
         JOIN corpus_pages p ON p.hash = f.hash AND p.project_id = ? AND p.state IN ('read', 'unchanged')
         WHERE corpus_passages MATCH ? ORDER BY f.rank, p.url LIMIT ? OFFSET ?`,
        projectId,
        match,
        options.limit,
        options.offset ?? 0,
      ).map(
        (row): PassageHit => ({
          url: String(row.url),
          title: String(row.title),
          page: pageOf(row),
          heading: String(row.heading),
          text: String(row.body),
          hash: String(row.hash),
        }),
      );
    },
    close() {
      db.close();
    },
  };
}
