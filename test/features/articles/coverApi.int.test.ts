import { get } from 'node:http';
import { expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { useSiteAndInkstream } from '../../support/siteAndInkstream.ts';

const world = useSiteAndInkstream();

const cover = (articleId: string, key = world.app.key) =>
  fetch(`${world.app.url}/api/v1/articles/${articleId}/cover`, {
    headers: { authorization: `Bearer ${key}` },
  });

async function draftedArticle(covers: boolean): Promise<{ id: string; cover: unknown }> {
  const projectId = (
    await world.app.api().post('/projects', {
      name: 'Crumb',
      websiteUrl: world.site.origin,
      settings: { covers: { enabled: covers } },
    })
  ).body.project.id;
  const topic = (
    await world.app
      .api()
      .post(`/projects/${projectId}/topics`, { title: 'Pricing sourdough loaves' })
  ).body.topic;
  const id = (await world.app.api().post(`/topics/${topic.id}/write`)).body.article.id;
  return eventually(
    () =>
      world.app
        .api()
        .get(`/articles/${id}`)
        .then((r) => r.body.article),
    (a) => a.status === 'draft',
    { what: 'the draft' },
  );
}

test("a drafted article's cover is a 1200×630 PNG in the brand's colours, the same bytes every time", async () => {
  const article = await draftedArticle(true);
  expect(article.cover).toMatchObject({
    title: expect.any(String),
    palette: { primary: '#e4572e', accent: '#f3a712' },
  });
  const [first, second] = [await cover(article.id), await cover(article.id)];
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe('image/png');
  const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
  expect(a.subarray(1, 4).toString()).toBe('PNG');
  expect([a.readUInt32BE(16), a.readUInt32BE(20)]).toEqual([1200, 630]);
  expect(a.equals(b)).toBe(true);
  expect(first.headers.get('etag')).toBe(second.headers.get('etag'));
});

test("no cover (covers off, or another account's article) is a 404 with the error shape", async () => {
  const article = await draftedArticle(false);
  expect(article.cover).toBeNull();
  const none = await cover(article.id);
  expect(none.status).toBe(404);
  expect(((await none.json()) as { error: object }).error).toMatchObject({
    code: 'not_found',
    message: expect.stringContaining('settings.covers.enabled'),
  });
  const withCover = await draftedArticle(true);
  const other = await cover(withCover.id, await world.app.newKey('other'));
  expect(other.status).toBe(404);
  expect((await cover('art_nope')).status).toBe(404);
});

test('a client that has the cover sends its ETag back and gets 304 without the bytes', async () => {
  const article = await draftedArticle(true);
  const etag = (await cover(article.id)).headers.get('etag')!;
  // node:http, not fetch: fetch adds "cache-control: no-cache" to a conditional request, which asks for the bytes.
  const conditional = (ifNoneMatch: string) =>
    new Promise<{ status: number; etag?: string; bytes: number }>((resolve, reject) => {
      get(
        `${world.app.url}/api/v1/articles/${article.id}/cover`,
        { headers: { authorization: `Bearer ${world.app.key}`, 'if-none-match': ifNoneMatch } },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode!, etag: response.headers.etag, bytes }),
          );
        },
      ).on('error', reject);
    });
  expect(await conditional(etag)).toEqual({ status: 304, etag, bytes: 0 });
  expect((await conditional('"other"')).status).toBe(200);
});
