import { expect, test } from 'vitest';
import { loadsOfFirstUse } from '../support/lazyLoad.ts';

const MDX_TOOLCHAIN = [
  'micromark-extension-mdxjs',
  'mdast-util-from-markdown',
  'mdast-util-to-markdown',
];
const HTML_EXTRACTOR = ['linkedom', '@mozilla/readability'];

test('the MDX toolchain and the HTML extractor are loaded by the first crawl and draft, not by a start that makes none', async () => {
  const { atStart, afterUse, result } = await loadsOfFirstUse(
    [...MDX_TOOLCHAIN, ...HTML_EXTRACTOR],
    `
    const { startTestSite } = await import(root + '/test/support/testSite.ts');
    const { eventually } = await import(root + '/test/support/eventually.ts');
    const site = await startTestSite();
    const api = inkstream.api();
    const project = (await api.post('/projects', { name: 'Crumb & Co.', websiteUrl: site.origin })).body.project;
    const topic = (await api.post('/projects/' + project.id + '/topics', { title: 'How bakeries cut food waste', keyword: 'bakery food waste' })).body.topic;
    const article = (await api.post('/topics/' + topic.id + '/write')).body.article;
    const drafted = await eventually(async () => (await api.get('/articles/' + article.id)).body.article,
      (found) => found.status === 'draft' || found.status === 'failed', { timeoutMs: 60_000, what: 'the draft' });
    await site.close();
    return { status: drafted.status, generator: drafted.frontmatter?.generator?.provider, keywordSection: drafted.body?.includes('## Keyword') };
  `,
  );
  expect(atStart).toEqual([]);
  expect(afterUse).toEqual([...MDX_TOOLCHAIN, ...HTML_EXTRACTOR]);
  expect(result).toEqual({ status: 'draft', generator: 'offline', keywordSection: true });
}, 180_000);
