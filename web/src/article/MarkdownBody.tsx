import { useMemo, type ReactElement } from 'react';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { collectLinks, highlightFindings, rawAsText, safeUrl, sanitizeSchema, type FindingRange } from './safeMarkdown.ts';

export type BodyLink = { href: string; text: string };

/** A link the sanitizer or the URL rules emptied is shown as its text; the rest never pass a referrer or a window handle. */
function SafeLink({ href, children }: { href?: string; children?: React.ReactNode }) {
  if (!href) return <span className="dropped-link">{children}</span>;
  return <a href={href} rel="noopener noreferrer nofollow">{children}</a>;
}

function SafeImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  if (typeof src !== 'string' || !src) return <span className="dropped-image">[image not shown{alt ? `: ${alt}` : ''}]</span>;
  return <img src={src} alt={alt ?? ''} loading="lazy" />;
}

/**
 * The article's Markdown as a page (safeMarkdown.ts says what cannot run) with the findings marked,
 * and the links it keeps. `Markdown` is react-markdown's synchronous renderer, called once per body.
 */
export function useMarkdownBody(body: string, findings: readonly FindingRange[]): { element: ReactElement; links: BodyLink[] } {
  return useMemo(() => {
    const links: BodyLink[] = [];
    const element = Markdown({
      children: body,
      remarkPlugins: [remarkGfm],
      rehypePlugins: [rawAsText, [rehypeSanitize, sanitizeSchema], [highlightFindings, findings], [collectLinks, links]],
      urlTransform: safeUrl,
      components: { a: SafeLink, img: SafeImage },
    });
    return { element, links };
  }, [body, findings]);
}
