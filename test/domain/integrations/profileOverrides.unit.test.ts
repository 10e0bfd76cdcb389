import { expect, test } from 'vitest';
import {
  applyOverridesPatch,
  type ContentProfile,
  effectiveProfile,
  overrideConflicts,
} from '../../../src/domain/integrations/contentProfile.ts';
import { astroBlogProfile } from '../../support/contentProfile.ts';

const profile = (overrides: ContentProfile['overrides']): ContentProfile => ({
  state: 'learned',
  learnedFrom: { commit: 'c', tree: 't' },
  learned: astroBlogProfile(),
  failureReason: null,
  overrides,
});

test('overriding the extension changes the file name, and a file name brings its extension', () => {
  expect(effectiveProfile(profile({ extension: 'mdx' }))).toMatchObject({
    fileName: '{slug}.mdx',
    extension: 'mdx',
  });
  expect(effectiveProfile(profile({ fileName: '{slug}/index.markdown' }))).toMatchObject({
    fileName: '{slug}/index.markdown',
    extension: 'markdown',
  });
  expect(effectiveProfile(profile({}))).toMatchObject({ fileName: '{slug}.md', extension: 'md' });
});

test('a patch sets, removes and leaves overrides; false leaves a field out, null forgets the rename', () => {
  const current = { fileName: '{slug}.md', fieldNames: { date: 'published', tags: null } };
  expect(
    applyOverridesPatch(current, {
      fileName: null,
      directory: 'src/content/news',
      fieldNames: { date: null, updated: false, title: 'heading' },
    }),
  ).toEqual({
    fieldNames: { tags: null, updated: null, title: 'heading' },
    directory: 'src/content/news',
  });
  expect(applyOverridesPatch(current, { fieldNames: { date: null, tags: null } })).toEqual({
    fileName: '{slug}.md',
  });
  expect(applyOverridesPatch(current, {})).toEqual(current);
});

test('two fields under one name, or a file name and extension that disagree, are conflicts', () => {
  expect(overrideConflicts(profile({ fieldNames: { description: 'title' } }))).toEqual([
    { override: 'fieldNames.description', message: expect.stringContaining('"title"') },
  ]);
  // Renaming both sides of a swap is fine.
  expect(
    overrideConflicts(profile({ fieldNames: { description: 'title', title: 'headline' } })),
  ).toEqual([]);
  expect(overrideConflicts(profile({ fileName: '{slug}.md', extension: 'mdx' }))).toEqual([
    { override: 'extension', message: expect.stringContaining('.md, not .mdx') },
  ]);
});
