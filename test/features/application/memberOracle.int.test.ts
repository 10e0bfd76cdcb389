import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, linkToken } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const PASSWORD = 'plum-orchard-lantern-42';
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
  await inkstream.newKey('other-tenant');
});
afterAll(() => inkstream.close());

const shape = (answer: { status: number; body: any }) => ({
  status: answer.status,
  keys: Object.keys(answer.body ?? {}).sort(),
  member: Object.keys(answer.body?.member ?? {}).sort(),
  memberStatus: answer.body?.member?.status,
});

test('inviting an address that is a member of another account answers exactly as inviting a new one: no oracle', async () => {
  await signedInMember(inkstream, { email: 'alice@corp.example', role: 'editor' });
  const stranger = await signedInMember(inkstream, {
    account: 'other-tenant',
    email: 'owner@other.example',
    role: 'owner',
  });
  const known = await stranger.request('POST', '/members', { email: 'alice@corp.example' });
  const unknown = await stranger.request('POST', '/members', { email: 'nobody@corp.example' });
  expect(shape(known)).toEqual(shape(unknown));
  expect(known.status).toBe(201);
  // Accepting that invitation is where the address is refused, told to the address's owner only.
  const accept = await appSession(inkstream.url).request('POST', '/set-password', {
    token: linkToken(known.body.inviteLink),
    password: PASSWORD,
  });
  expect(accept.status).toBe(409);
  // Alice still signs in to her own account.
  const alice = await appSession(inkstream.url).request('POST', '/sign-in', {
    email: 'alice@corp.example',
    password: PASSWORD,
  });
  expect(alice.status).toBe(200);
});

test('an account inviting an address first cannot squat it: the real employer invites it too, and the person accepts theirs', async () => {
  const squatter = await signedInMember(inkstream, {
    account: 'other-tenant',
    email: 'owner2@other.example',
    role: 'owner',
  });
  const employer = await signedInMember(inkstream, { email: 'boss@corp.example', role: 'owner' });
  const squatted = await squatter.request('POST', '/members', { email: 'carol@corp.example' });
  expect(squatted.status).toBe(201);
  const invited = await employer.request('POST', '/members', { email: 'carol@corp.example' });
  expect(invited.status).toBe(201);
  const carol = appSession(inkstream.url);
  expect(
    (
      await carol.request('POST', '/set-password', {
        token: linkToken(invited.body.inviteLink),
        password: PASSWORD,
      })
    ).status,
  ).toBe(200);
  const signedIn = await carol.request('POST', '/sign-in', {
    email: 'carol@corp.example',
    password: PASSWORD,
  });
  expect(signedIn.status).toBe(200);
  const me = await carol.request('GET', '/me');
  expect(me.body.member.email).toBe('carol@corp.example');
  expect(me.body.account.name).not.toBe('other-tenant');
  // Within one account a second invitation of a member is refused at once (the owner sees the list).
  expect((await employer.request('POST', '/members', { email: 'carol@corp.example' })).status).toBe(
    409,
  );
});
