import { expect, test } from 'vitest';
import { loadsOfFirstUse } from '../../support/lazyLoad.ts';

test('argon2 and the common-password list are loaded by the first password set, not by a start that serves only API keys', async () => {
  const { atStart, afterUse, result } = await loadsOfFirstUse(
    ['@node-rs/argon2', '@zxcvbn-ts/language-common'],
    `
    const { signedInMember } = await import(root + '/test/support/signedInMember.ts');
    const { appSession, linkToken } = await import(root + '/test/support/appSession.ts');
    const { inviteByName } = await import(root + '/src/features/application/index.ts');
    const { OPERATOR } = await import(root + '/test/support/operator.ts');
    const member = await signedInMember(inkstream, { email: 'ada@example.com', role: 'editor' });
    const me = await member.request('GET', '/me');
    const wrong = await appSession(inkstream.url).request('POST', '/sign-in', { email: 'ada@example.com', password: 'not-her-password-at-all' });
    const { link } = await inviteByName(inkstream.platform, { account: 'test', email: 'bo@example.com', role: 'viewer', actor: OPERATOR });
    const common = await appSession(inkstream.url).request('POST', '/set-password', { token: linkToken(link.url), password: 'Password123', email: 'bo@example.com' });
    return { me: me.status, wrongPassword: wrong.status, commonPassword: [common.status, common.body.error.details[0].path] };
  `,
  );
  expect(atStart).toEqual([]);
  expect(afterUse).toEqual(['@node-rs/argon2', '@zxcvbn-ts/language-common']);
  expect(result).toEqual({ me: 200, wrongPassword: 401, commonPassword: [400, 'body.password'] });
}, 150_000);
