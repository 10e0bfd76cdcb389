import { expect, test } from 'vitest';
import {
  contrastRatio,
  coverTextColour,
  formatRatio,
  safeHex,
  wcagLevel,
} from '../../web/src/brand/contrast.ts';
import { readablePalette } from '../../src/integrations/covers/svg.ts';

test('anything but a #rrggbb colour is refused before it can reach a style', () => {
  for (const hostile of [
    'red;background:url(//evil)',
    '#fff',
    '#12345g',
    'url(//evil)',
    '#123456;color:red',
    ' #123456',
    '#123456 ',
    'expression(alert(1))',
    null,
    7,
  ]) {
    expect(safeHex(hostile)).toBeNull();
    expect(contrastRatio(String(hostile), '#ffffff')).toBeNull();
  }
  expect(safeHex('#E4572E')).toBe('#e4572e');
});

test('contrast ratios are the WCAG figures', () => {
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2); // the classic just-failing grey
  expect(contrastRatio('#ffffff', '#777777')).toBe(contrastRatio('#777777', '#ffffff'));
  expect(formatRatio(4.4999)).toBe('4.49:1');
  expect(wcagLevel(contrastRatio('#767676', '#ffffff')!)).toBe('AA');
  expect(wcagLevel(4.48)).toBe('AA large');
  expect(wcagLevel(2.9)).toBe('fails');
  expect(wcagLevel(7.1)).toBe('AAA');
});

test('the cover title colour is the one the server draws with', () => {
  for (const [text, background] of [
    ['#2b2d42', '#fffdf8'],
    ['#ffff00', '#ffffff'],
    ['#333333', '#222222'],
    ['#777777', '#ffffff'],
    ['#e4572e', '#1b998b'],
  ]) {
    expect(coverTextColour(text, background)).toBe(
      readablePalette({ text, background, primary: '#000000', accent: '#000000' }).text,
    );
  }
});
