import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../../support/inkstream.ts';
import { stopPipeline } from '../../../support/stopPipeline.ts';

let app: TestInkstream;
let projectId: string;
beforeAll(async () => {
  app = await startInkstream();
  await stopPipeline(app); // the crawl would finish (or fail) and fill the brand
  projectId = (await app.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })).body.project.id;
});
afterAll(async () => { await app.close(); });

test('before the first crawl the brand is empty, with the crawl pending', async () => {
  const read = await app.api().get(`/projects/${projectId}/brand`);
  expect(read.status).toBe(200);
  expect(read.body.brand).toMatchObject({ voiceTraits: [], companyFacts: [], editedParts: [], crawlStatus: 'pending', palette: { primary: '#1f2937' } });
});

test('a PUT of one part keeps the others and is remembered as edited', async () => {
  const first = await app.api().put(`/projects/${projectId}/brand`, { voiceTraits: ['warm', 'precise'], voice: { summary: 'Friendly experts', person: 'second' } });
  expect(first.status).toBe(200);
  expect(first.body.brand).toMatchObject({ voiceTraits: ['warm', 'precise'], voice: { summary: 'Friendly experts', person: 'second', formality: 'neutral' } });
  const second = await app.api().put(`/projects/${projectId}/brand`, {
    companyFacts: [{ kind: 'founded', value: '1999' }], doDont: { do: ['cite sources'] }, coverStyle: { mood: 'bold' },
  });
  expect(second.body.brand).toMatchObject({
    voiceTraits: ['warm', 'precise'], voice: { summary: 'Friendly experts' },
    companyFacts: [{ kind: 'founded', value: '1999', sourceUrl: null }], doDont: { do: ['cite sources'], dont: [] },
    coverStyle: { mood: 'bold', shapes: 'waves', typography: 'sans' },
  });
  expect(second.body.brand.editedParts).toEqual(['voice', 'companyFacts', 'doDont', 'voiceTraits', 'coverStyle']);
  expect((await app.api().get(`/projects/${projectId}/brand`)).body.brand).toEqual(second.body.brand);
  expect((await app.api().get(`/projects/${projectId}`)).body.project.brand.voiceTraits).toEqual(['warm', 'precise']);
});

test('invalid brand parts are refused field by field, and nothing changes', async () => {
  const before = (await app.api().get(`/projects/${projectId}/brand`)).body.brand;
  const empty = await app.api().put(`/projects/${projectId}/brand`, {});
  expect(empty.status).toBe(400);
  const invalid = await app.api().put(`/projects/${projectId}/brand`, { voice: { person: 'fourth' }, coverStyle: { mood: 'loud' }, palette: {} });
  expect(invalid.status).toBe(400);
  expect(invalid.body.error.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['body.voice.person', 'body.coverStyle.mood']));
  expect((await app.api().get(`/projects/${projectId}/brand`)).body.brand).toEqual(before);
});

test('unknown projects are 404', async () => {
  expect((await app.api().get('/projects/prj_00000000000000000000000000/brand')).status).toBe(404);
  expect((await app.api().put('/projects/prj_00000000000000000000000000/brand', { voiceTraits: [] })).status).toBe(404);
});
