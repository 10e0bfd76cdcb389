import { afterAll, beforeAll, expect, test } from 'vitest';
import { ACCESS_TOKENS } from '../../../src/http/accessTokens.ts';
import type { Stores } from '../../../src/app/stores.ts';
import type { Doc, FindOptions } from '../../../src/readstore/port.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

/** The application's requests, watched at the read store: what each one costs the store. */
let inkstream: TestInkstream;
const calls: string[] = [];

function watched(stores: Stores): Stores {
  const real = stores.readStore;
  const readStore = Object.create(real) as typeof real;
  readStore.ensureCollections = (specs) => {
    calls.push(`ensureCollections ${specs.map((spec) => spec.name).join(',')}`);
    return real.ensureCollections(specs);
  };
  readStore.find = <T extends Doc>(collection: string, options: FindOptions) => {
    calls.push(`find ${collection}`);
    return real.find<T>(collection, options);
  };
  return { ...stores, readStore };
}

beforeAll(async () => {
  inkstream = await startInkstream({ wrapStores: watched });
});
afterAll(() => inkstream?.close());

test('listing the keys declares no collection: the application declared its collections at start', async () => {
  const owner = await signedInMember(inkstream, {
    email: 'keys-owner@acme.example',
    role: 'owner',
  });
  calls.length = 0;
  for (let i = 0; i < 3; i++) expect((await owner.request('GET', '/keys')).status).toBe(200);
  expect(calls.filter((call) => call.startsWith('ensureCollections'))).toEqual([]);
});

test('removing a member with two sessions ends their access tokens in one pass, and every token is refused after', async () => {
  const owner = await signedInMember(inkstream, { email: 'remover-2@acme.example', role: 'owner' });
  const laptop = await signedInMember(inkstream, {
    email: 'two-devices@acme.example',
    role: 'editor',
  });
  const phone = appSession(inkstream.url);
  expect(
    (
      await phone.request('POST', '/sign-in', {
        email: 'two-devices@acme.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(200);
  const tokens = [
    (await laptop.request('POST', '/access-token')).body.accessToken,
    (await phone.request('POST', '/access-token')).body.accessToken,
  ];
  const {
    body: { member },
  } = await laptop.request('GET', '/me');

  calls.length = 0;
  expect((await owner.request('DELETE', `/members/${member.id}`)).status).toBe(204);
  expect(calls.filter((call) => call === `find ${ACCESS_TOKENS}`)).toHaveLength(1);
  for (const token of tokens) {
    expect(
      (
        await fetch(`${inkstream.url}/api/v1/projects`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(401);
  }
});
