import { expect, test } from 'vitest';
import { listChanges, partChanges } from '../../web/src/brand/brandChanges.ts';
import { emptyBrand } from '../../src/domain/projects/project.ts';

const brand = (changes: object) => ({
  ...emptyBrand(),
  editedParts: [],
  crawlStatus: 'done' as const,
  lastCrawl: null,
  ...changes,
});

test('list changes name what was added and what was removed, nothing that stayed', () => {
  expect(listChanges(['warm', 'direct'], ['direct', 'concise'])).toEqual([
    'added: concise',
    'removed: warm',
  ]);
  expect(listChanges(['same'], ['same'])).toEqual([]);
});

test('a changed part is described line by line against what it was before the crawl', () => {
  const now = brand({
    companyFacts: [{ kind: 'team', value: '55', sourceUrl: null, evidence: null }],
    doDont: { do: ['Cite sources.'], dont: ['No emoji.'] },
    coverStyle: { mood: 'bold', shapes: 'waves', typography: 'sans' },
  });
  expect(
    partChanges(
      'companyFacts',
      { companyFacts: [{ kind: 'team', value: '40', sourceUrl: null, evidence: null }] },
      now,
    ),
  ).toEqual(['added: team: 55', 'removed: team: 40']);
  expect(partChanges('doDont', { doDont: { do: [], dont: ['No emoji.'] } }, now)).toEqual([
    'do, added: Cite sources.',
  ]);
  expect(
    partChanges(
      'coverStyle',
      { coverStyle: { mood: 'calm', shapes: 'waves', typography: 'sans' } },
      now,
    ),
  ).toEqual(['mood: was calm, now bold']);
  expect(partChanges('palette', { palette: { ...now.palette, primary: '#000000' } }, now)).toEqual([
    `primary: was #000000, now ${now.palette.primary}`,
  ]);
});
