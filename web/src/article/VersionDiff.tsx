import { diffWordsWithSpace, type ChangeObject } from 'diff';
import { useEffect, useMemo, useState } from 'react';
import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { absoluteTime } from '../ui/formatTime.ts';

type VersionSummary = components['schemas']['ArticleVersionSummary'];

const loadVersion = async (id: string, n: number) =>
  (await unwrap(api.GET('/articles/{id}/versions/{n}', { params: { path: { id, n } } }))).version
    .content;

/**
 * The revision history and a side-by-side, word-level diff of any two versions. The MDX is
 * compared as text and shown as text spans (removed on the left, added on the right): nothing of
 * the article is rendered as markup here.
 */
export function VersionDiff({ articleId, latest }: { articleId: string; latest: number }) {
  const versions = useResource(
    async () =>
      (await unwrap(api.GET('/articles/{id}/versions', { params: { path: { id: articleId } } })))
        .versions,
    `${articleId}:${latest}`,
  );
  const list = versions.data ?? [];
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  useEffect(() => {
    if (list.length === 0) return;
    setTo(list[list.length - 1].version);
    setFrom(list[Math.max(0, list.length - 2)].version);
  }, [list.length]); // eslint-disable-line react-hooks/exhaustive-deps
  // Nothing to compare until there are two versions; one version compared with itself is read once.
  const pair = useResource(async () => {
    if (from === null || to === null || list.length < 2) return null;
    if (from === to)
      return loadVersion(articleId, from).then((content) => [content, content] as const);
    return Promise.all([loadVersion(articleId, from), loadVersion(articleId, to)]);
  }, `${articleId}:${from}:${to}:${list.length}`);
  const changes = useMemo(
    () => (pair.data ? diffWordsWithSpace(pair.data[0], pair.data[1]) : []),
    [pair.data],
  );

  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Revision history</h2>
      <ErrorNote error={versions.error ?? pair.error} />
      <ol className="versions">
        {list.map((version) => (
          <li key={version.version}>{describe(version)}</li>
        ))}
      </ol>
      {list.length > 1 && from !== null && to !== null && (
        <>
          <div className="inline-fields">
            <VersionPicker
              label="Compare version"
              value={from}
              versions={list}
              onChange={setFrom}
            />
            <VersionPicker label="with version" value={to} versions={list} onChange={setTo} />
          </div>
          <div className="diff" aria-busy={pair.loading}>
            <DiffSide title={`Version ${from}`} changes={changes} hide="added" />
            <DiffSide title={`Version ${to}`} changes={changes} hide="removed" />
          </div>
        </>
      )}
    </section>
  );
}

function describe(version: VersionSummary): string {
  const what =
    version.kind === 'draft' ? 'First draft' : version.kind === 'refresh' ? 'Refresh' : 'Revision';
  const stats =
    version.version > 1
      ? ` (+${version.diff.addedWords} / −${version.diff.removedWords} words)`
      : '';
  return `Version ${version.version}: ${what}, ${absoluteTime(version.at)}${stats}${version.summary ? `: ${version.summary}` : ''}`;
}

function VersionPicker({
  label,
  value,
  versions,
  onChange,
}: {
  label: string;
  value: number;
  versions: readonly VersionSummary[];
  onChange(version: number): void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {versions.map((version) => (
          <option key={version.version} value={version.version}>
            {version.version}
          </option>
        ))}
      </select>
    </label>
  );
}

function DiffSide({
  title,
  changes,
  hide,
}: {
  title: string;
  changes: readonly ChangeObject<string>[];
  hide: 'added' | 'removed';
}) {
  return (
    <figure className="diff-side">
      <figcaption>{title}</figcaption>
      {/* Focusable so a keyboard can scroll a long version (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label={title}>
        {changes
          .filter((change) => !change[hide])
          .map((change, index) => {
            if (change.added) return <ins key={index}>{change.value}</ins>;
            if (change.removed) return <del key={index}>{change.value}</del>;
            return <span key={index}>{change.value}</span>;
          })}
      </pre>
    </figure>
  );
}
