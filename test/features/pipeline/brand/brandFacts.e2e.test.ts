import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../../support/inkstream.ts';
import { page, startTestSite, type TestSite } from '../../../support/testSite.ts';

let site: TestSite;
let app: TestInkstream;
beforeAll(async () => {
  site = await startTestSite({
    replaceDefaults: true,
    pages: {
      '/': page(
        [
          '<h1>Crumb &amp; Co.</h1>',
          '<p>Trusted by 500+ bakeries in 12 countries.</p>',
          '<ul><li>Proof point: 10% to</li><li>4.8/5 stars</li><li>Save 20% on</li></ul>',
          '<p>We give 5% of every order to local food banks, and we have since the first loaf.</p>',
          '<p>Bakeries plan their week with us. Orders arrive before the ovens are warm.</p>',
        ].join(''),
        'Crumb & Co.',
      ),
    },
  });
  app = await startInkstream();
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

test('the facts a crawl learns are whole sentences from the site; list fragments like "Proof point: 10% to" are not facts', async () => {
  const api = app.api();
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  const brand = await eventually(
    async () => (await api.get(`/projects/${projectId}/brand`)).body.brand,
    (b) => b.companyFacts.length > 0,
    { what: 'the brand' },
  );
  const proofPoints = brand.companyFacts
    .filter((fact: { kind: string }) => fact.kind === 'proof_point')
    .map((fact: { value: string }) => fact.value);
  expect(proofPoints).toEqual([
    'Trusted by 500+ bakeries in 12 countries.',
    'We give 5% of every order to local food banks, and we have since the first loaf.',
  ]);
});
