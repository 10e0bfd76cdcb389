import { expect, test } from 'vitest';
import { escapeMarkup } from '../../src/core/markupText.ts';

test('text with markup, quotes and entities stays text inside an element or a quoted attribute', () => {
  const hostile = `"><script>alert('x')</script>&amp;<img src=x onerror=alert(1)>`;
  const escaped = escapeMarkup(hostile);
  expect(escaped).not.toMatch(/[<>"']/);
  expect(escaped).toBe(
    '&quot;&gt;&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;&amp;amp;&lt;img src=x onerror=alert(1)&gt;',
  );
  // Decoding the five entities gives the text back exactly.
  const decoded = escaped.replace(
    /&(quot|gt|lt|apos|amp);/g,
    (_, name: string) => ({ quot: '"', gt: '>', lt: '<', apos: "'", amp: '&' })[name]!,
  );
  expect(decoded).toBe(hostile);
});
