import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ArticleDoc } from '../../../projections/articles.ts';
import { AppError } from '../../core/errors.ts';
import { route } from '../../http/route.ts';
import { ownedDoc } from '../../http/resources.ts';
import { idOf } from '../../http/schemas.ts';
import type { CoverGenerator } from '../../integrations/covers/port.ts';
import type { Cover } from '../../domain/articles/article.ts';

/**
 * One generator per font file (INKSTREAM_COVER_FONT; none: the built-in stroke font), loaded on
 * first use: the renderer (resvg, a native module) is imported by the first cover drawn, so a
 * server that never draws one never holds it (docs/memory.md).
 */
const generators = new Map<string, CoverGenerator>();

/** The ETag of a cover: the same descriptor draws the same bytes. */
export const coverETag = (cover: Cover): string =>
  `"${createHash('sha256').update(JSON.stringify(cover)).digest('hex').slice(0, 32)}"`;

// The last covers drawn, by ETag: a revalidated or repeated view (the brand's sample is asked for on
// every visit) costs a hash instead of a render. Bounded: at most this many PNGs of ~50 KB.
const RECENT_COVERS = 32;
const recent = new Map<string, Promise<Buffer>>();

/** The PNG drawn from the descriptor (on the article event, or the brand's sample): the same descriptor gives the same bytes. */
export function renderCover(cover: Cover, fontFile: string | undefined): Promise<Buffer> {
  const key = `${fontFile ?? ''}:${coverETag(cover)}`;
  let png = recent.get(key);
  if (!png) {
    png = drawCover(cover, fontFile);
    png.catch(() => recent.delete(key));
    recent.set(key, png);
    if (recent.size > RECENT_COVERS) recent.delete(recent.keys().next().value!);
  }
  return png;
}

async function drawCover(cover: Cover, fontFile: string | undefined): Promise<Buffer> {
  let generator = generators.get(fontFile ?? '');
  if (!generator) {
    const { createResvgCoverGenerator } = await import('../../integrations/covers/resvg.ts');
    generator = createResvgCoverGenerator({ fontFiles: fontFile ? [fontFile] : [] });
    generators.set(fontFile ?? '', generator);
  }
  const image = await generator.generate({
    title: cover.title,
    palette: cover.palette,
    style: { mood: cover.style.mood, shapes: cover.style.shapes },
  });
  return image.png;
}

export const coverRoutes = [
  route({
    method: 'get',
    path: '/articles/:id/cover',
    tag: 'Articles',
    summary: "The article's cover image (1200×630 PNG), drawn from the brand palette and the title",
    params: z.object({ id: idOf('art') }),
    responses: { 200: { binary: 'image/png' } },
    errors: [404],
    async handle({ params, auth, platform }) {
      const doc = await ownedDoc<ArticleDoc>(
        platform.readStore,
        'articles',
        params.id,
        auth,
        'article',
      );
      if (!doc.cover) {
        throw new AppError(
          'not_found',
          `Article ${params.id} has no cover: it is not drafted yet, or covers are off for its project (settings.covers.enabled).`,
        );
      }
      const png = await renderCover(doc.cover, platform.config.INKSTREAM_COVER_FONT);
      return {
        status: 200,
        raw: png,
        contentType: 'image/png',
        headers: { ETag: coverETag(doc.cover), 'Cache-Control': 'private, max-age=3600' },
      };
    },
  }),
];
