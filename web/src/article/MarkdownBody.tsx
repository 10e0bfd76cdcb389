import { useMemo, type ReactElement } from 'react';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import {
  collectLinks,
  highlightFindings,
  rawAsText,
  safeUrl,
  sanitizeSchema,
  type FindingRange,
} from './safeMarkdown.ts';

export type BodyLink = { href: string; text: string };

/** A link the sanitizer or the URL rules emptied is shown as its text; the rest never pass a referrer or a window handle. */
function SafeLink({ href, children }: { href?: string; children?: React.ReactNode }) {
  if (!href) return <span className="dropped-link">{children}</span>;
  return (
    <a href={href} rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

function SafeImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  if (typeof src !== 'string' || !src)
    return <span className="dropped-image">[image not shown{alt ? `: ${alt}` : ''}]</span>;
  return <img src={src} alt={alt ?? ''} loading="lazy" />;
}

/** The page's title is its one h1: the body's headings sit a level below it. */
const SHIFTED_HEADINGS = {
  h1: 'h2',
  h2: 'h3',
  h3: 'h4',
  h4: 'h5',
  h5: 'h6',
  h6: 'h6',
} as const;
const headingComponents = Object.fromEntries(
  Object.entries(SHIFTED_HEADINGS).map(([from, Tag]) => [
    from,
    ({ children, id }: { children?: React.ReactNode; id?: string }) => (
      <Tag id={id}>{children}</Tag>
    ),
  ]),
);

/**
 * The article's Markdown as a page (safeMarkdown.ts says what cannot run) with the findings marked,
 * and the links it keeps. `Markdown` is react-markdown's synchronous renderer, called once per body.
 */
export function useMarkdownBody(
  body: string,
  findings: readonly FindingRange[],
): { element: ReactElement; links: BodyLink[] } {
  return useMemo(() => {
    const links: BodyLink[] = [];
    const element = Markdown({
      children: body,
      remarkPlugins: [remarkGfm],
      rehypePlugins: [
        rawAsText,
        [rehypeSanitize, sanitizeSchema],
        [highlightFindings, findings],
        [collectLinks, links],
      ],
      urlTransform: safeUrl,
      components: { ...headingComponents, a: SafeLink, img: SafeImage },
    });
    return { element, links };
  }, [body, findings]);
}
