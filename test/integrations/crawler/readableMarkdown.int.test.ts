import { expect, test } from 'vitest';
import { readableMarkdown } from '../../../src/integrations/crawler/readableMarkdown.ts';
import { parseMdxTree } from '../../../src/mdx/mdxSyntax.ts';

test('when Readability finds no article, the plain text is kept, each block escaped so MDX reads it as text', async () => {
  const markdown = await readableMarkdown(
    '<!doctype html><html><body></body></html>',
    'Prices {from} £5\nimport Foo from "x"\n<Banner />',
  );
  expect(markdown).toBe('Prices \\{from} £5\n\n&#x69;mport Foo from "x"\n\n\\<Banner />');
  const tree = parseMdxTree(markdown);
  expect(tree.children.every((node) => node.type === 'paragraph')).toBe(true);
});
