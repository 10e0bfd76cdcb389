import { expect, test } from 'vitest';
import { useAcmeProject } from '../../../support/acmeProject.ts';

const acme = useAcmeProject({ pipeline: 'stopped' });

test('before the first crawl the brand is empty, with the crawl pending', async () => {
  const read = await acme.app.api().get(`/projects/${acme.projectId}/brand`);
  expect(read.status).toBe(200);
  expect(read.body.brand).toMatchObject({
    voiceTraits: [],
    companyFacts: [],
    editedParts: [],
    crawlStatus: 'pending',
    palette: { primary: '#1f2937' },
  });
});

test('a PUT of one part keeps the others and is remembered as edited', async () => {
  const first = await acme.app.api().put(`/projects/${acme.projectId}/brand`, {
    voiceTraits: ['warm', 'precise'],
    voice: { summary: 'Friendly experts', person: 'second' },
  });
  expect(first.status).toBe(200);
  expect(first.body.brand).toMatchObject({
    voiceTraits: ['warm', 'precise'],
    voice: { summary: 'Friendly experts', person: 'second', formality: 'neutral' },
  });
  const second = await acme.app.api().put(`/projects/${acme.projectId}/brand`, {
    companyFacts: [{ kind: 'founded', value: '1999' }],
    doDont: { do: ['cite sources'] },
    coverStyle: { mood: 'bold' },
  });
  expect(second.body.brand).toMatchObject({
    voiceTraits: ['warm', 'precise'],
    voice: { summary: 'Friendly experts' },
    companyFacts: [{ kind: 'founded', value: '1999', sourceUrl: null }],
    doDont: { do: ['cite sources'], dont: [] },
    coverStyle: { mood: 'bold', shapes: 'waves', typography: 'sans' },
  });
  expect(second.body.brand.editedParts).toEqual([
    'voice',
    'companyFacts',
    'doDont',
    'voiceTraits',
    'coverStyle',
  ]);
  expect((await acme.app.api().get(`/projects/${acme.projectId}/brand`)).body.brand).toEqual(
    second.body.brand,
  );
  expect(
    (await acme.app.api().get(`/projects/${acme.projectId}`)).body.project.brand.voiceTraits,
  ).toEqual(['warm', 'precise']);
});

test('invalid brand parts are refused field by field, and nothing changes', async () => {
  const before = (await acme.app.api().get(`/projects/${acme.projectId}/brand`)).body.brand;
  const empty = await acme.app.api().put(`/projects/${acme.projectId}/brand`, {});
  expect(empty.status).toBe(400);
  const invalid = await acme.app.api().put(`/projects/${acme.projectId}/brand`, {
    voice: { person: 'fourth' },
    coverStyle: { mood: 'loud' },
    palette: {},
  });
  expect(invalid.status).toBe(400);
  expect(invalid.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['body.voice.person', 'body.coverStyle.mood']),
  );
  expect((await acme.app.api().get(`/projects/${acme.projectId}/brand`)).body.brand).toEqual(
    before,
  );
});

test('unknown projects are 404', async () => {
  expect((await acme.app.api().get('/projects/prj_00000000000000000000000000/brand')).status).toBe(
    404,
  );
  expect(
    (
      await acme.app
        .api()
        .put('/projects/prj_00000000000000000000000000/brand', { voiceTraits: [] })
    ).status,
  ).toBe(404);
});
