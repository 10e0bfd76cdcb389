import { expect, test } from 'vitest';
import { COVER_HEIGHT, COVER_WIDTH } from '../../../src/integrations/covers/port.ts';
import { createResvgCoverGenerator } from '../../../src/integrations/covers/resvg.ts';
import { buildCoverSvg, readablePalette, wrapTitle } from '../../../src/integrations/covers/svg.ts';

const palette = { primary: '#2d6a4f', accent: '#e9c46a', background: '#f1faee', text: '#1b4332' };
const request = {
  title: 'How to Brew Green Tea Without Bitterness',
  palette,
  style: { mood: 'calm', shapes: 'waves' },
  brandName: 'Fernleaf Tea',
};
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

test('a cover is a 1200×630 PNG, the same bytes for the same title and different for another', async () => {
  const covers = createResvgCoverGenerator();
  const first = await covers.generate(request);
  expect(first.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(pngSize(first.png)).toEqual({ width: COVER_WIDTH, height: COVER_HEIGHT });
  expect([first.width, first.height]).toEqual([1200, 630]);
  expect((await covers.generate(request)).png.equals(first.png)).toBe(true);
  expect(
    (await covers.generate({ ...request, title: 'Storing Loose-Leaf Tea at Home' })).png.equals(
      first.png,
    ),
  ).toBe(false);
});

test('with no font on the machine the title is drawn as paths, still deterministic', async () => {
  const covers = createResvgCoverGenerator({ fontDirs: ['/nonexistent-font-dir'] });
  expect(covers.textMode()).toBe('paths');
  const image = await covers.generate(request);
  expect(image.textMode).toBe('paths');
  expect(image.svg).not.toContain('<text');
  expect(pngSize(image.png)).toEqual({ width: 1200, height: 630 });
  expect((await covers.generate(request)).png.equals(image.png)).toBe(true);
  expect(
    (await covers.generate({ ...request, title: 'Another title' })).png.equals(image.png),
  ).toBe(false);
});

test('titles are escaped, wrapped and clipped; shapes and colours follow the style and palette', () => {
  const svg = buildCoverSvg(
    { ...request, title: 'Tea & <Biscuits> "Pairing" Guide' },
    { textMode: 'font', fontFamily: 'DejaVu Sans' },
  );
  for (const part of ['>Tea &amp;<', '>&lt;Biscuits&gt;<', '>&quot;Pairing&quot;<'])
    expect(svg).toContain(part);
  expect(svg).not.toContain('<Biscuits>');
  expect(svg).toContain('fill="#f1faee"');
  expect(svg).toMatch(/<path d="M\d+ 630 L/); // waves
  expect(
    buildCoverSvg({ ...request, style: { shapes: 'circles' } }, { textMode: 'font' }),
  ).toContain('<circle');
  expect(wrapTitle('one two three four five six', 9, 2)).toEqual(['one two', 'three…']);
  expect(wrapTitle('Supercalifragilistic', 8, 3)).toEqual(['Supercal', 'ifragili', 'stic']);
});

test('an unreadable text colour is replaced, bad hex falls back to defaults', () => {
  expect(readablePalette({ ...palette, text: '#eef8ea' }).text).toBe('#111111');
  expect(readablePalette({ ...palette, background: '#101010', text: '#202020' }).text).toBe(
    '#ffffff',
  );
  expect(readablePalette({ primary: 'not-a-colour' }).primary).toBe('#1f3a5f');
});
