import { expect, test } from 'vitest';
import {
  createSecretBox,
  keyIdOf,
  SealedSecretError,
  type SecretBinding,
} from '../../src/core/secretBox.ts';

const oldKey = Buffer.alloc(32, 3);
const testKey = Buffer.alloc(32, 7);
const newKey = Buffer.alloc(32, 9);

const projectA: SecretBinding = {
  kind: 'github-credentials',
  accountId: 'acc_a',
  recordId: 'prj_a',
};
const projectB: SecretBinding = {
  kind: 'github-credentials',
  accountId: 'acc_b',
  recordId: 'prj_b',
};

// Sealed by the version before key ids and bindings (v1), under testKey and oldKey: the log keeps them forever.
const V1_UNDER_TEST_KEY =
  'v1.84_4N1IM63NpdDRT.ix34TzvSl01XD_i_MDE76Q.5wmIyZV9tMIfUqkKfzUX245pLtHyowEERw4';
const V1_UNDER_OLD_KEY =
  'v1.Z73OkmZ1S0rSE7Ht.Abh3QCi6ogqrmGCqMCu-0g.OzLGS377zbkEyPsdMLlSUTLF-67hCJJFK4A';

test("a value sealed for one record does not open as another record's, nor as another kind of secret", () => {
  const box = createSecretBox({ current: testKey, retired: [] });
  const sealed = box.seal('ghp_token_of_a', projectA);
  expect(() => box.open(sealed, projectB)).toThrow(SealedSecretError);
  expect(() => box.open(sealed, { ...projectA, accountId: 'acc_b' })).toThrow(SealedSecretError);
  expect(() => box.open(sealed, { ...projectA, kind: 'github-webhook-secret' })).toThrow(
    /another record/,
  );
  expect(box.open(sealed, projectA)).toBe('ghp_token_of_a');
});

test('an altered value, a key id swapped in, or text that is not a sealed value is refused', () => {
  const box = createSecretBox({ current: testKey, retired: [oldKey] });
  const [version, , iv, tag, ciphertext] = box.seal('whsec_x', projectA).split('.');
  const flipped = Buffer.from(ciphertext, 'base64url');
  flipped[0] ^= 1;
  expect(() =>
    box.open(
      [version, keyIdOf(testKey), iv, tag, flipped.toString('base64url')].join('.'),
      projectA,
    ),
  ).toThrow(SealedSecretError);
  expect(() =>
    box.open([version, keyIdOf(oldKey), iv, tag, ciphertext].join('.'), projectA),
  ).toThrow(SealedSecretError);
  for (const junk of ['', 'plaintext', 'v2.a.b.c', 'v3.a.b.c.d', 'v1.a.b'])
    expect(() => box.open(junk, projectA)).toThrow(SealedSecretError);
});

test('values sealed before bindings (v1) still open, under the current key or a retired one', () => {
  expect(createSecretBox({ current: testKey, retired: [] }).open(V1_UNDER_TEST_KEY, projectA)).toBe(
    'ghp_sealed_before_rotation',
  );
  const rotated = createSecretBox({ current: newKey, retired: [testKey, oldKey] });
  expect(rotated.open(V1_UNDER_TEST_KEY, projectB)).toBe('ghp_sealed_before_rotation');
  expect(rotated.open(V1_UNDER_OLD_KEY, projectA)).toBe('whsec_sealed_under_old_key');
  expect(() =>
    createSecretBox({ current: newKey, retired: [] }).open(V1_UNDER_OLD_KEY, projectA),
  ).toThrow(/INKSTREAM_SECRET_KEYS_RETIRED/);
});

test('after a rotation new values are sealed under the new key, and values under the retired key still open', () => {
  const before = createSecretBox({ current: testKey, retired: [] });
  const sealedBefore = before.seal('ghp_before', projectA);
  expect(sealedBefore.split('.').slice(0, 2)).toEqual(['v2', keyIdOf(testKey)]);

  const after = createSecretBox({ current: newKey, retired: [testKey] });
  expect(after.open(sealedBefore, projectA)).toBe('ghp_before');
  const sealedAfter = after.seal('ghp_after', projectA);
  expect(sealedAfter.split('.')[1]).toBe(keyIdOf(newKey));
  expect(() => before.open(sealedAfter, projectA)).toThrow(SealedSecretError);
});

test('a value under a retired key that was dropped names the key id it needs, never the key', () => {
  const sealed = createSecretBox({ current: testKey, retired: [] }).seal('ghp_before', projectA);
  const dropped = createSecretBox({ current: newKey, retired: [] });
  expect(() => dropped.open(sealed, projectA)).toThrow(
    new RegExp(`key ${keyIdOf(testKey)}.*INKSTREAM_SECRET_KEYS_RETIRED`),
  );
  expect(keyIdOf(testKey)).not.toContain(testKey.toString('base64url').slice(0, 11));
});

test('keys of the wrong length are refused', () => {
  expect(() => createSecretBox({ current: Buffer.alloc(16), retired: [] })).toThrow(/32 bytes/);
  expect(() => createSecretBox({ current: testKey, retired: [Buffer.alloc(31)] })).toThrow(
    /32 bytes/,
  );
});

test('opening a value under a retired key, or an unbound v1 value, says which record still needs saving again', () => {
  const sealedBefore = createSecretBox({ current: testKey, retired: [] }).seal(
    'ghp_before',
    projectA,
  );
  const outdated: unknown[] = [];
  const after = createSecretBox({
    current: newKey,
    retired: [testKey],
    onOutdated: (binding, sealedWith) => outdated.push({ binding, sealedWith }),
  });
  after.open(after.seal('ghp_after', projectB), projectB);
  expect(outdated).toEqual([]);
  after.open(sealedBefore, projectA);
  after.open(V1_UNDER_TEST_KEY, projectB);
  expect(outdated).toEqual([
    { binding: projectA, sealedWith: { version: 'v2', keyId: keyIdOf(testKey) } },
    { binding: projectB, sealedWith: { version: 'v1', keyId: keyIdOf(testKey) } },
  ]);
});
