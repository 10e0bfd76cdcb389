import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const src = join(import.meta.dirname, '../../../src');

/**
 * In a fresh process (this one's module cache is shared by other tests): every feature's modules
 * are loaded as a start loads them, and the cover renderer is not among them until a cover is drawn.
 */
const script = `
import { createRequire } from 'node:module';
const resvgLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('@resvg'));
await import(${JSON.stringify(join(src, 'app/features.ts'))});
const atStart = resvgLoaded();
const { renderCover } = await import(${JSON.stringify(join(src, 'features/articles/coverApi.ts'))});
const png = await renderCover({ title: 'Brewing green tea', palette: { primary: '#225533', accent: '#dd8844', background: '#fafaf5', text: '#111111' },
  style: { mood: 'calm', shapes: 'waves', typography: 'serif' } }, undefined);
console.log(JSON.stringify({ atStart, afterCover: resvgLoaded(), pngBytes: png.length }));
`;

test('the cover renderer (resvg) is loaded by the first cover drawn, not by a start that draws none', async () => {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(src, '..'),
    timeout: 60_000,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(result).toMatchObject({ atStart: false, afterCover: true });
  expect(result.pngBytes).toBeGreaterThan(1_000);
}, 90_000);
