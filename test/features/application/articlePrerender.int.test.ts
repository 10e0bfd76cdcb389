import type { Element, Nodes, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { signedInMember } from '../../support/signedInMember.ts';
import { appSession } from '../../support/appSession.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

/**
 * The article page's first response: the article rendered and sanitized for a member who may read
 * it, and the plain index.html, byte for byte, for everyone else (docs/workspace.md).
 */
const HOUR = 60 * 60 * 1000;
const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;
let projectId: string;
let plain: { body: string; headers: Record<string, string | null> };
const account = accountIdForName('test');

const HOSTILE_TITLE =
  '</h1><script>window.__pwned=1</script><img src=x onerror=alert(1)> & "quoted"';
const HOSTILE_BODY = [
  '# Hostile heading',
  '',
  '<script>window.__pwned = 1</script>',
  '',
  'Closing early </div></article></main></div><script>window.__pwned = 2</script>',
  '',
  '<img src=x onerror="window.__pwned = 3">',
  '',
  '[js link](javascript:alert(4)) [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==) [vb](vbscript:msgbox) [ok](https://acme.example/ok)',
  '',
  '![pixel](http://tracker.example/p.png) ![inline](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=) ![ok](https://cdn.example/ok.png)',
  '',
  'An expression {alert(6)} and <Chart onLoad={() => alert(7)} /> component.',
  '',
  '<!-- a comment that hides <script>alert(8)</script> -->',
  '',
  'A CDATA end ]]> and <![CDATA[ <script>alert(9)</script> ]]>',
  '',
  '<style>body { display: none }</style>',
  '',
  '<iframe src="https://evil.example/frame"></iframe>',
  '',
  '<svg onload="alert(10)"><script>alert(11)</script><foreignObject><img src=x onerror=alert(12)></foreignObject></svg>',
  '',
  'Entities &lt;script&gt;alert(13)&lt;/script&gt; and &#60;img src=x onerror=alert(14)&#62; and &#x6A;avascript:alert(15)',
  '',
  '[entity link](&#x6A;avascript:alert(16)) [spaced link](<java script:alert(17)>) [tab](java&#9;script:alert(18))',
  '',
  '<a href="javascript:alert(19)">raw link</a> <form action="https://evil.example"><button>go</button></form>',
  '',
  'The last paragraph.',
  '',
].join('\n');

beforeAll(async () => {
  inkstream = await startInkstream({ clock });
  await stopPipeline(inkstream);
  projectId = (
    await inkstream.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })
  ).body.project.id;
  const response = await fetch(`${inkstream.url}/projects/${projectId}/articles/art_none`);
  plain = { body: await response.text(), headers: headersOf(response) };
}, 60_000);
afterAll(() => inkstream?.close());

function headersOf(response: Response): Record<string, string | null> {
  return Object.fromEntries(
    [
      'content-type',
      'content-length',
      'cache-control',
      'vary',
      'content-security-policy',
      'x-frame-options',
    ].map((name) => [name, response.headers.get(name)]),
  );
}

async function articleWith(mdx: string, title: string, project = projectId): Promise<string> {
  const {
    body: { topic },
  } = await inkstream.api().post(`/projects/${project}/topics`, { title: 'An article' });
  const {
    body: { article },
  } = await inkstream.api().post(`/topics/${topic.id}/write`);
  await advanceArticle(inkstream.platform, account, article.id, 'draft', {
    mdx: `---\ntitle: t\n---\n\n${mdx}`,
    title,
  });
  await expect
    .poll(async () => (await inkstream.api().get(`/articles/${article.id}`)).body.article.status)
    .toBe('draft');
  return article.id;
}

async function page(path: string, cookie?: string | null) {
  const response = await fetch(`${inkstream.url}${path}`, { headers: cookie ? { cookie } : {} });
  return { body: await response.text(), headers: headersOf(response) };
}

const elements = (node: Nodes): Element[] => [
  ...(node.type === 'element' ? [node] : []),
  ...('children' in node ? node.children.flatMap(elements) : []),
];
const textOf = (node: Nodes): string =>
  node.type === 'text' ? node.value : 'children' in node ? node.children.map(textOf).join('') : '';
const prerenderedIn = (tree: Root) =>
  elements(tree).find((element) => element.properties.id === 'prerendered-article');

test('hostile bodies and a title with markup come out as text: nothing in the page runs, and nothing escapes the container', {
  timeout: 60_000,
}, async () => {
  const id = await articleWith(HOSTILE_BODY, HOSTILE_TITLE);
  const member = await signedInMember(inkstream, { email: 'reader@test.example', role: 'viewer' });
  const answer = await page(`/projects/${projectId}/articles/${id}`, member.cookie);
  const tree = fromHtml(answer.body);
  const prerendered = prerenderedIn(tree);
  expect(prerendered, 'the article is in the first response').toBeDefined();

  // Outside the container, the page is the plain index.html: no markup closed it early or was added beside it.
  const container = prerendered!;
  const without = structuredClone(tree);
  const strip = (node: Nodes) => {
    if ('children' in node)
      node.children = node.children
        .filter(
          (child) => !(child.type === 'element' && child.properties.id === 'prerendered-article'),
        )
        .map((child) => (strip(child), child));
  };
  strip(without);
  expect(toHtml(without)).toBe(toHtml(fromHtml(plain.body)));

  const inside = elements(container);
  const tags = new Set(inside.map((element) => element.tagName));
  for (const banned of [
    'script',
    'style',
    'iframe',
    'svg',
    'form',
    'button',
    'input',
    'object',
    'embed',
    'foreignObject',
    'math',
    'link',
    'meta',
    'base',
  ]) {
    expect(tags.has(banned), banned).toBe(false);
  }
  for (const element of inside) {
    expect(
      Object.keys(element.properties).filter((name) => /^on/i.test(name) || name === 'style'),
      element.tagName,
    ).toEqual([]);
    for (const key of ['href', 'src', 'cite', 'action'] as const) {
      const value = element.properties[key];
      if (value !== undefined)
        expect(String(value), `${element.tagName} ${key}`).toMatch(/^(https:\/\/|\/(?!\/)|#)/);
    }
  }
  expect(
    inside.filter((element) => element.tagName === 'img').map((element) => element.properties.src),
  ).toEqual(['https://cdn.example/ok.png']);
  expect(
    inside.filter((element) => element.tagName === 'a').map((element) => element.properties.href),
  ).toEqual(['https://acme.example/ok']);
  expect(
    inside
      .filter((element) => element.tagName === 'a')
      .every(
        (element) => [element.properties.rel].flat().join(' ') === 'noopener noreferrer nofollow',
      ),
  ).toBe(true);

  const title = inside.find((element) => element.tagName === 'h1')!;
  expect(title.children.every((child) => child.type === 'text')).toBe(true);
  expect(textOf(title)).toBe(HOSTILE_TITLE);
  const text = textOf(container);
  for (const shown of [
    '<script>window.__pwned = 1</script>',
    '</div></article></main></div><script>',
    '{alert(6)}',
    '<Chart onLoad={() => alert(7)} />',
    '<style>body { display: none }</style>',
    '<iframe src="https://evil.example/frame"></iframe>',
    '<svg onload="alert(10)">',
    '<script>alert(13)</script>',
    'js link',
    '[image not shown: pixel]',
    'The last paragraph.',
  ]) {
    expect(text, shown).toContain(shown);
  }
  expect(
    inside
      .find((element) => element.tagName === 'h2')
      ?.children.map(textOf)
      .join(''),
  ).toBe('Hostile heading');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.vary).toBe('Cookie');
});

test("another account's article, an unknown id, another project's address, ?at= and no cookie all get the plain index.html, byte for byte", {
  timeout: 60_000,
}, async () => {
  const id = await articleWith('Acme own words.\n', 'Acme article');
  const otherProject = (
    await inkstream
      .api()
      .post('/projects', { name: 'Second', websiteUrl: 'https://second.example' })
  ).body.project.id;
  await inkstream.newKey('globex'); // the other account
  const stranger = await signedInMember(inkstream, {
    account: 'globex',
    email: 'stranger@globex.example',
    role: 'owner',
  });
  const member = await signedInMember(inkstream, { email: 'insider@test.example', role: 'editor' });

  expect((await page(`/projects/${projectId}/articles/${id}`, member.cookie)).body).toContain(
    'Acme own words.',
  );
  for (const [path, cookie] of [
    [`/projects/${projectId}/articles/${id}`, stranger.cookie],
    [`/projects/${projectId}/articles/art_01NOTANARTICLE`, stranger.cookie],
    [`/projects/${projectId}/articles/art_01NOTANARTICLE`, member.cookie],
    [`/projects/${otherProject}/articles/${id}`, member.cookie],
    [`/projects/${projectId}/articles/${id}?at=0`, member.cookie],
    [`/projects/${projectId}/articles/${id}`, null],
    [`/projects/${projectId}/articles/${id}`, 'inkstream_session=not-a-token'],
  ] as const) {
    expect(
      await page(path, cookie),
      `${path} ${cookie === stranger.cookie ? 'stranger' : cookie === null ? 'no cookie' : 'member'}`,
    ).toEqual(plain);
  }
  const head = (cookie?: string | null) =>
    fetch(`${inkstream.url}/projects/${projectId}/articles/${id}`, {
      method: 'HEAD',
      headers: cookie ? { cookie } : {},
    }).then(headersOf);
  expect(await head(member.cookie)).toEqual(await head(null)); // a HEAD is never rendered: nothing to learn from its length
  expect(plain.headers['cache-control']).toBe('no-cache');
  expect(plain.headers.vary).toBeNull();
});

test('an expired session, a signed-out one, a revoked one and a project the read models no longer hold get the plain page', {
  timeout: 60_000,
}, async () => {
  const id = await articleWith('Words for members only.\n', 'Members only');
  const path = `/projects/${projectId}/articles/${id}`;
  const idle = await signedInMember(inkstream, {
    email: 'idle-reader@test.example',
    role: 'viewer',
  });
  const leaving = await signedInMember(inkstream, {
    email: 'leaving-reader@test.example',
    role: 'viewer',
  });
  expect((await page(path, idle.cookie)).body).toContain('Words for members only.');
  const leavingCookie = leaving.cookie;
  expect((await leaving.request('POST', '/sign-out')).status).toBe(204);
  expect(await page(path, leavingCookie)).toEqual(plain);
  // Revoked from another device: the phone's session ended by the laptop.
  const laptop = await signedInMember(inkstream, {
    email: 'two-devices-reader@test.example',
    role: 'viewer',
  });
  const phone = appSession(inkstream.url);
  expect(
    (
      await phone.request('POST', '/sign-in', {
        email: 'two-devices-reader@test.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(200);
  expect((await page(path, phone.cookie)).body).toContain('Words for members only.');
  const phoneSession = (await laptop.request('GET', '/sessions')).body.sessions.find(
    (session: { current: boolean }) => !session.current,
  );
  expect((await laptop.request('DELETE', `/sessions/${phoneSession.id}`)).status).toBe(204);
  expect(await page(path, phone.cookie)).toEqual(plain);
  clock.advance(12 * HOUR + 1);
  expect(await page(path, idle.cookie)).toEqual(plain);

  // Projects cannot be deleted today; this is what a deletion would leave: the article without its project.
  const fresh = await signedInMember(inkstream, {
    email: 'fresh-reader@test.example',
    role: 'viewer',
  });
  expect((await page(path, fresh.cookie)).body).toContain('Words for members only.');
  await inkstream.platform.readStore.remove('projects', projectId);
  expect(await page(path, fresh.cookie)).toEqual(plain);
});
