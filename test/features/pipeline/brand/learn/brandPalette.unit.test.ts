import { expect, test } from 'vitest';
import { wcagContrast } from 'culori';
import {
  buildPalette,
  toHex,
} from '../../../../../src/features/pipeline/brand/learn/brandPalette.ts';
import { readCss } from '../../../../../src/features/pipeline/brand/learn/cssFacts.ts';

const paletteOf = (css: string, themeColors: string[] = []) =>
  buildPalette({ themeColors, css: readCss([css]) });

test('colours in any CSS notation normalise to lower-case hex; transparent ones are ignored', () => {
  expect(toHex('#ABC')).toBe('#aabbcc');
  expect(toHex('rgb(228 87 46)')).toBe('#e4572e');
  expect(toHex('hsl(0, 100%, 50%)')).toBe('#ff0000');
  expect(toHex('oklch(0.7 0.1 200)')).toMatch(/^#[0-9a-f]{6}$/);
  expect(toHex('rebeccapurple')).toBe('#663399');
  expect(toHex('rgba(0,0,0,0.1)')).toBeUndefined();
  expect(toHex('solid')).toBeUndefined();
});

test('near-identical shades merge into one colour', () => {
  const palette = paletteOf(
    'a { color: #e4572e } b { color: #e5582f } c { color: #e4572e } d { background: #1b998b }',
  );
  expect(palette.colors.map((c) => c.hex)).toEqual(['#e4572e', '#1b998b']);
  expect(palette.colors[0].weight).toBe(1);
});

test('custom properties give roles, resolved through var() chains', () => {
  const palette = paletteOf(
    ':root { --brand: #0055ff; --color-primary: var(--brand); --bg: #ffffff } .x { color: var(--color-primary) }',
  );
  expect(palette.primary).toBe('#0055ff');
  expect(palette.background).toBe('#ffffff');
  expect(palette.colors.find((c) => c.hex === '#0055ff')).toMatchObject({
    source: 'css-variable',
    role: 'primary',
  });
});

test('the theme-color is primary when no variable names one', () => {
  const palette = paletteOf('p { color: #333333 }', ['#1B998B']);
  expect(palette.primary).toBe('#1b998b');
  expect(palette.colors[0]).toMatchObject({
    hex: '#1b998b',
    source: 'theme-color',
    role: 'primary',
  });
});

test('a --text colour that is unreadable on the background is replaced by a readable one', () => {
  const palette = paletteOf(
    ':root { --text: #eeeeee; --background: #ffffff } p { color: #444444 }',
  );
  expect(palette.text).toBe('#444444');
  expect(wcagContrast(palette.text, palette.background)).toBeGreaterThanOrEqual(4.5);
  const dark = paletteOf('body { background: #101010 }');
  expect(dark.text).toBe('#ffffff');
});

test('with no CSS at all there is still a full palette', () => {
  const palette = paletteOf('');
  expect(palette).toMatchObject({ colors: [], background: '#ffffff', text: '#111111' });
  expect(palette.accent).not.toBe(palette.primary);
});
