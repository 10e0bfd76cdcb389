import { expect, test } from 'vitest';
import { loadsOfFirstUse } from '../../support/lazyLoad.ts';

const ARTICLE_HTML = ['remark-gfm', 'remark-rehype', 'rehype-sanitize', 'rehype-stringify'];

test("the article page's HTML renderer is loaded by the first prerendered article page, not by a start", async () => {
  const { atStart, afterUse, result } = await loadsOfFirstUse(
    ARTICLE_HTML,
    `
    const { stopPipeline } = await import(root + '/test/support/stopPipeline.ts');
    const { advanceArticle } = await import(root + '/test/support/articleLife.ts');
    const { signedInMember } = await import(root + '/test/support/signedInMember.ts');
    const { accountIdForName } = await import(root + '/src/domain/accounts/account.ts');
    const { eventually } = await import(root + '/test/support/eventually.ts');
    await stopPipeline(inkstream);
    const api = inkstream.api();
    const project = (await api.post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })).body.project;
    const topic = (await api.post('/projects/' + project.id + '/topics', { title: 'A guide' })).body.topic;
    const article = (await api.post('/topics/' + topic.id + '/write')).body.article;
    await advanceArticle(inkstream.platform, accountIdForName('test'), article.id, 'draft', { mdx: '---\\ntitle: A guide\\n---\\n\\n| a | b |\\n| - | - |\\n| 1 | 2 |\\n' });
    await eventually(async () => (await api.get('/articles/' + article.id)).body.article.status, (status) => status === 'draft', { timeoutMs: 30_000, what: 'the draft' });
    const reader = await signedInMember(inkstream, { email: 'reader@test.example', role: 'viewer' });
    const page = await fetch(inkstream.url + '/projects/' + project.id + '/articles/' + article.id, { headers: { cookie: reader.cookie } });
    return { prerendered: (await page.text()).includes('<td>1</td>') };
  `,
  );
  expect(atStart).toEqual([]);
  expect(afterUse).toEqual(ARTICLE_HTML);
  expect(result).toEqual({ prerendered: true });
}, 180_000);
