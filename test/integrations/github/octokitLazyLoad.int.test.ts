import { expect, test } from 'vitest';
import { loadsOfFirstUse } from '../../support/lazyLoad.ts';

test('Octokit is loaded by the first GitHub call, not by a start that makes none; a token credential never loads the GitHub App client', async () => {
  const { atStart, afterUse, result } = await loadsOfFirstUse(
    ['@octokit/rest', '@octokit/auth-app'],
    `
    const api = inkstream.api();
    const project = await api.post('/projects', { name: 'Lazy', websiteUrl: 'https://lazy.example' });
    const connect = (token) => api.put('/projects/' + project.body.project.id + '/integrations/github', {
      repository: 'acme/site', baseBranch: 'main', contentDirectory: 'content/blog', credentials: { type: 'token', token },
    });
    const refused = await connect('ghp_unknown');
    const saved = await connect('ghp_writer');
    return { refused: [refused.status, refused.body.error.details[0].path], saved: saved.status };
  `,
    {
      beforeStart: `
      const { FakeGitHub } = await import(root + '/test/support/fakeGitHub.ts');
      const github = await FakeGitHub.start();
      github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# Acme site\\n' } });
      github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
      const startOptions = { env: { GITHUB_API_URL: github.baseUrl } };
    `,
    },
  );
  expect(atStart).toEqual([]);
  expect(afterUse).toEqual(['@octokit/rest']);
  // The calls really reached GitHub: it refused one token on its field and accepted the other.
  expect(result).toEqual({ refused: [400, 'body.credentials'], saved: 200 });
}, 150_000);
