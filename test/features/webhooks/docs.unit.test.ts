import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import {
  signedHeaders,
  standardSignature,
} from '../../../src/features/webhooks/delivery/signature.ts';

const doc = readFileSync(join(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'inkstream-webhook-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function block(info: string, after: string): string {
  const start = doc.indexOf(after);
  const fence = '```' + info + '\n';
  const open = doc.indexOf(fence, start);
  if (start < 0 || open < 0)
    throw new Error(`docs/webhooks.md has no \`\`\`${info} block after "${after}"`);
  return doc.slice(open + fence.length, doc.indexOf('\n```', open + fence.length));
}

type Vectors = {
  secret: string;
  webhookId: string;
  webhookTimestamp: string;
  body: string;
  xServiceSignature: string;
  webhookSignature: string;
};
const vectors = JSON.parse(block('json test-vectors', '### Test vectors')) as Vectors;

test('the documented test vectors are what Inkstream sends', () => {
  const headers = signedHeaders({
    secret: vectors.secret,
    id: vectors.webhookId,
    timestampSeconds: Number(vectors.webhookTimestamp),
    body: vectors.body,
  });
  expect(headers['x-service-signature']).toBe(vectors.xServiceSignature);
  expect(headers['webhook-signature']).toBe(vectors.webhookSignature);
  expect(headers['webhook-id']).toBe(vectors.webhookId);
  expect(headers['webhook-timestamp']).toBe(vectors.webhookTimestamp);
  expect(Buffer.from(vectors.secret.slice(6), 'base64')).toEqual(
    Buffer.from(Array.from({ length: 32 }, (_, i) => i)),
  );
});

test("the Standard Webhooks reference vector holds for Inkstream's signer", () => {
  expect(
    standardSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    ),
  ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

// Each snippet must accept the vector and refuse a changed body, a wrong secret and a stale timestamp.
const cases = {
  valid: [vectors.secret, vectors.body, Number(vectors.webhookTimestamp) + 60],
  tamperedBody: [
    vectors.secret,
    vectors.body.replace('merged', 'closed'),
    Number(vectors.webhookTimestamp),
  ],
  wrongSecret: [
    'whsec_' + Buffer.alloc(32, 1).toString('base64'),
    vectors.body,
    Number(vectors.webhookTimestamp),
  ],
  staleTimestamp: [vectors.secret, vectors.body, Number(vectors.webhookTimestamp) + 3600],
} as const;
const expected = {
  valid: [true, true],
  tamperedBody: [false, false],
  wrongSecret: [false, false],
  staleTimestamp: [true, false],
};

test('the Node snippet verifies the vectors', () => {
  const file = join(dir, 'verify.mjs');
  writeFileSync(
    file,
    `${block('js', '### Verifying in Node')}
const headers = { 'webhook-id': ${JSON.stringify(vectors.webhookId)}, 'webhook-timestamp': ${JSON.stringify(vectors.webhookTimestamp)}, 'webhook-signature': ${JSON.stringify(vectors.webhookSignature)} };
const cases = ${JSON.stringify(cases)};
const out = {};
for (const [name, [secret, body, now]] of Object.entries(cases)) {
  const raw = Buffer.from(body, 'utf8');
  out[name] = [verifyServiceSignature(secret, raw, ${JSON.stringify(vectors.xServiceSignature)}), verifyStandardWebhook(secret, headers, raw, now)];
}
console.log(JSON.stringify(out));
`,
  );
  expect(JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }))).toEqual(
    expected,
  );
});

const python = spawnSync('python3', ['--version']).status === 0 ? 'python3' : null;

test.skipIf(python === null)('the Python snippet verifies the vectors', () => {
  const file = join(dir, 'verify.py');
  writeFileSync(
    file,
    `${block('python', '### Verifying in Python')}

import json
headers = {"webhook-id": ${JSON.stringify(vectors.webhookId)}, "webhook-timestamp": ${JSON.stringify(vectors.webhookTimestamp)}, "webhook-signature": ${JSON.stringify(vectors.webhookSignature)}}
cases = json.loads(${JSON.stringify(JSON.stringify(cases))})
out = {}
for name, (secret, body, now) in cases.items():
    raw = body.encode("utf-8")
    out[name] = [verify_service_signature(secret, raw, ${JSON.stringify(vectors.xServiceSignature)}), verify_standard_webhook(secret, headers, raw, now)]
print(json.dumps(out))
`,
  );
  expect(JSON.parse(execFileSync(python!, [file], { encoding: 'utf8' }))).toEqual(expected);
});
