import { articleStateInSentence } from '../articleStates.ts';
import { useMemo } from 'react';
import type { Article } from './articleApi.ts';
import { ChecksPanel } from './ChecksPanel.tsx';
import { findingsOf, rangesOf } from './checkFindings.ts';
import { useMarkdownBody, type BodyLink } from './MarkdownBody.tsx';
import { TableBox } from '../ui/TableBox.tsx';

/** Relative links, #anchors and links to the project's own site (with or without www.). */
function isInternal(href: string, siteHost: string | null): boolean {
  if (href.startsWith('#') || (href.startsWith('/') && !href.startsWith('//'))) return true;
  if (!URL.canParse(href)) return !/^[a-z][a-z0-9+.-]*:/i.test(href);
  const host = new URL(href).hostname.replace(/^www\./, '');
  return siteHost !== null && host === siteHost;
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One version of the article: the rendered body with its findings marked, the checks beside it, frontmatter, sources and links. */
export function ArticleView({
  article,
  siteHost,
  cover,
}: {
  article: Article;
  siteHost: string | null;
  cover?: string | null;
}) {
  const findings = useMemo(() => findingsOf(article.checks), [article.checks]);
  const ranges = useMemo(() => rangesOf(findings), [findings]);
  const { element, links } = useMarkdownBody(article.body ?? '', ranges);
  const internal = links.filter((link) => isInternal(link.href, siteHost));
  return (
    <>
      <div className="article-layout">
        <article className="article-body" aria-label="Article text">
          {cover && (
            <img
              className="cover"
              src={cover}
              alt={`Cover: ${article.cover?.title ?? article.title}`}
              width={1200}
              height={630}
            />
          )}
          {article.body ? (
            element
          ) : (
            <p>No text yet: the article is {articleStateInSentence(article.status)}.</p>
          )}
        </article>
        <ChecksPanel checks={article.checks} findings={findings} />
      </div>
      <section aria-labelledby="about-heading" className="article-meta">
        <h2 id="about-heading">About this version</h2>
        <p>
          Version {article.version}, {article.wordCount.toLocaleString()} words.
        </p>
        {article.frontmatter && Object.keys(article.frontmatter).length > 0 && (
          <TableBox label="Frontmatter">
            <table>
              <caption>Frontmatter</caption>
              <tbody>
                {Object.entries(article.frontmatter).map(([key, value]) => (
                  <tr key={key}>
                    <th scope="row">{key}</th>
                    <td>{formatValue(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        )}
        <h3>Sources</h3>
        {article.sources.length === 0 ? (
          <p>None recorded.</p>
        ) : (
          <ul>
            {article.sources.map((source) => (
              <li key={source.url}>
                {source.title} <span className="url">{source.url}</span>
              </li>
            ))}
          </ul>
        )}
        <LinkList title="Internal links" links={internal} />
      </section>
    </>
  );
}

function LinkList({ title, links }: { title: string; links: readonly BodyLink[] }) {
  return (
    <>
      <h3>{title}</h3>
      {links.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {links.map((link, index) => (
            <li key={`${link.href}-${index}`}>
              {link.text} <span className="url">{link.href}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
