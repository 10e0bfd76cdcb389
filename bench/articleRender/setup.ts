/**
 * What both article-page benches load: a 3,000-word draft in a test server (its pipeline stopped,
 * so nothing changes it meanwhile), a static HTML page of the same text served beside it, and a
 * signed-in editor's session cookie. The article's last paragraph is the text both pages are
 * timed to.
 */
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { advanceArticle } from '../../test/support/articleLife.ts';
import { startHttpServer } from '../../test/support/httpServer.ts';
import { startInkstream } from '../../test/support/inkstream.ts';
import { signedInMember } from '../../test/support/signedInMember.ts';
import { stopPipeline } from '../../test/support/stopPipeline.ts';

const WORDS = [
  'starter',
  'flour',
  'water',
  'crumb',
  'crust',
  'oven',
  'proof',
  'dough',
  'rye',
  'wheat',
  'salt',
  'levain',
  'bake',
  'fold',
  'rest',
  'shape',
];

/** 30 sections of 5 paragraphs of 20 words: 3,000 words, then the last paragraph waited for. */
const sections = Array.from({ length: 30 }, (_, section) => ({
  heading: `Section ${section + 1} of the guide`,
  paragraphs: Array.from({ length: 5 }, (_, paragraph) =>
    Array.from(
      { length: 20 },
      (_, word) => WORDS[(section * 7 + paragraph * 3 + word) % WORDS.length],
    ).join(' '),
  ),
}));
export const LAST_PARAGRAPH = 'The end of the guide.';
export const markdown = `${sections.map((s) => `## ${s.heading}\n\n${s.paragraphs.map((p) => `${p}.`).join('\n\n')}`).join('\n\n')}\n\n${LAST_PARAGRAPH}\n`;
export const staticHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title></head><body><main><h1>A long guide</h1>${sections
  .map((s) => `<h2>${s.heading}</h2>${s.paragraphs.map((p) => `<p>${p}.</p>`).join('')}`)
  .join('')}<p>${LAST_PARAGRAPH}</p></main></body></html>`;

export async function startArticleBench() {
  const app = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' } });
  await stopPipeline(app);
  const projectId = (
    await app.api().post('/projects', { name: 'Bench', websiteUrl: 'https://bench.example' })
  ).body.project.id;
  const topicId = (await app.api().post(`/projects/${projectId}/topics`, { title: 'A long guide' }))
    .body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountIdForName('test'), articleId, 'draft', {
    mdx: `---\ntitle: A long guide\n---\n\n${markdown}`,
    title: 'A long guide',
    wordCount: 3005,
  });
  const staticSite = await startHttpServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(staticHtml);
  });
  const session = await signedInMember(app, { email: 'bench@test.example', role: 'editor' });
  const [name, value] = session.cookie!.split(/=(.*)/s, 2);
  return {
    articleUrl: `${app.url}/projects/${projectId}/articles/${articleId}`,
    staticUrl: `${staticSite.origin}/`,
    cookie: { name, value, url: app.url, httpOnly: true, sameSite: 'Lax' as const },
    async close() {
      await staticSite.close();
      await app.close();
    },
  };
}
