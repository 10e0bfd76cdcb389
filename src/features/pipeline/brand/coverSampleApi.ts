import { z } from 'zod';
import { ownedProject } from '../../projects/owned.ts';
import { coverETag, renderCover } from '../../articles/coverApi.ts';
import { route } from '../../../http/route.ts';
import { idOf } from '../../../http/schemas.ts';
import type { Cover } from '../../../domain/articles/article.ts';
import { emptyBrand } from '../../../domain/projects/project.ts';

/** The same title for every brand, so two samples differ only by the brand's palette and cover style. */
export const SAMPLE_COVER_TITLE = 'How to plan a month of articles in one afternoon';

export const coverSampleRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/brand/cover-sample',
    tag: 'Brand',
    summary:
      "A sample cover (1200×630 PNG) drawn from the brand's palette and cover style with a fixed title",
    params: z.object({ id: idOf('prj') }),
    responses: { 200: { binary: 'image/png' } },
    errors: [404],
    async handle({ params, auth, platform }) {
      const doc = await ownedProject({ platform, auth }, params.id);
      const { palette, coverStyle } = doc.brand ?? emptyBrand();
      const cover: Cover = {
        title: SAMPLE_COVER_TITLE,
        palette: {
          primary: palette.primary,
          accent: palette.accent,
          background: palette.background,
          text: palette.text,
        },
        style: {
          mood: coverStyle.mood,
          shapes: coverStyle.shapes,
          typography: coverStyle.typography,
        },
      };
      const png = await renderCover(cover, platform.config.INKSTREAM_COVER_FONT);
      // Revalidated on every view: an edit of the cover style changes it at once.
      return {
        status: 200,
        raw: png,
        contentType: 'image/png',
        headers: { ETag: coverETag(cover), 'Cache-Control': 'private, no-cache' },
      };
    },
  }),
];
