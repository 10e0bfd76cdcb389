import { expect, test } from 'vitest';
import { countWords } from '../../../../src/mdx/mdx.ts';
import { createOfflineWriter } from '../../../../src/integrations/llm/offline/index.ts';
import { reviseOffline } from '../../../../src/integrations/llm/offline/revise.ts';
import { fernleafBrand as brand, fernleafPages as pages } from '../../../support/brandFixture.ts';

const writer = createOfflineWriter();
const body = `Green tea rewards attention. It's easy to get wrong, and you'll taste the difference.

## Water temperature

Green tea turns bitter in boiling water. Use water between 70 and 80 degrees. A kettle with temperature control helps a lot of people.

## Storage

Keep green tea in an airtight tin. Light and air fade its flavour within weeks.

- Airtight tin
- Away from light
- Cool cupboard
- Not the fridge

## Conclusion

Brew with care and the leaf will reward you.
`;

const topic = { title: 'Brewing green tea', keyword: 'green tea', brief: '' };
const revise = (instruction: string) =>
  writer.reviseArticle({ body, instruction, brand, topic, outline: [], pages });

test('"shorten" halves the paragraphs and lists and says by how much', async () => {
  const result = await revise('Please shorten it.');
  expect(countWords(result.body)).toBeLessThan(countWords(body));
  expect(result.body).toContain('## Storage');
  expect(result.body).not.toContain('Not the fridge');
  expect(result.summary).toBe(
    `Shortened the article from ${countWords(body)} to ${countWords(result.body)} words.`,
  );
  expect(result).toMatchObject({ provider: 'offline', usage: { totalTokens: 0 } });
});

test('"add a section about X" adds what the site\'s pages say about X, with their URLs, before the conclusion', async () => {
  const result = await revise('Add a section about airtight tins');
  const headings = result.body.match(/^## .+$/gm);
  expect(headings).toEqual([
    '## Water temperature',
    '## Storage',
    '## Airtight tins',
    '## Conclusion',
  ]);
  expect(result.body).toContain(
    '“Store green tea in an airtight tin away from light.” ([Green tea | Fernleaf Tea shop](https://fernleaf.example/shop/green-tea))',
  );
  expect(result.summary).toMatch(
    /^Added a section "Airtight tins" quoting what the site's pages say about it/,
  );
});

test('a section on something no page mentions is not invented: the body stays, the summary says so', async () => {
  const result = await revise('Add a section about choosing a teapot');
  expect(result.body).toBe(body);
  expect(result.summary).toBe(
    'Nothing was changed. Could not add a section on “choosing a teapot”: no crawled page of the site says anything about it, and the offline writer does not invent facts.',
  );
});

test('"more formal" expands contractions and casual phrasing', async () => {
  const result = await revise('Make it more formal');
  expect(result.body).toContain('It is easy to get wrong, and you will taste the difference.');
  expect(result.body).toContain('helps many people');
  expect(result.summary).toMatch(/more formal \(3 informal phrasings changed\)/);
});

test('"mention X" quotes the page that mentions X in the introduction; several clauses apply in turn', async () => {
  const result = await revise('Mention our Dragon Well and remove the section about storage');
  expect(result.body.split('## ')[0]).toContain(
    '“Dragon Well green tea is nutty and smooth.” ([Green tea | Fernleaf Tea shop](https://fernleaf.example/shop/green-tea))',
  );
  expect(result.body).not.toContain('## Storage');
  expect(result.summary).toBe(
    'Mentioned our Dragon Well in the introduction, quoting https://fernleaf.example/shop/green-tea. Removed the section "Storage".',
  );
});

test('replacing and banning words', async () => {
  expect((await revise('Replace "kettle" with "teapot"')).body).toContain(
    'A teapot with temperature control',
  );
  const banned = await revise("Don't use the word airtight");
  expect(banned.body).not.toMatch(/airtight/i);
  expect(banned.summary).toBe('Removed "airtight" (2 occurrences).');
});

test('an instruction it cannot apply leaves the body unchanged and is reported in the summary, never in the body', async () => {
  const result = await revise('Make the intro punchier');
  expect(result.body).toBe(body);
  expect(result.body).not.toMatch(/editor/i);
  expect(result.summary).toMatch(
    /^Nothing was changed\. Could not apply “Make the intro punchier”: without a language model Inkstream only /,
  );
  const partly = await revise('Make it more formal and expand the storage section');
  expect(partly.body).toContain('It is easy to get wrong');
  expect(partly.summary).toMatch(
    /^Made the tone more formal \(\d+ informal phrasings changed\)\. Could not expand the article: new prose needs a language model/,
  );
});

test("the brand's don'ts hold after a revision too", async () => {
  const result = await revise('Add a section about revolutionary brewing!');
  expect(result.body).not.toMatch(/revolutionary|!/i);
});

test('revisions are deterministic', async () => {
  expect(await revise('Shorten it and make it more formal')).toEqual(
    await revise('Shorten it and make it more formal'),
  );
});

test('sections named without quotes, several in one request, and a name the article lacks', () => {
  const body =
    'Intro.\n\n## Keyword\n\ntea\n\n## Company facts\n\n- founded: 2016\n\n## Pages to link to\n\n- [Home](https://x.example/)\n';
  const input = {
    body,
    brand: {
      name: 'F',
      voice: '',
      voiceTraits: [],
      companyFacts: [],
      doDont: { do: [], dont: [] },
    },
    topic: { title: 't', keyword: 'tea', brief: '' },
    outline: [],
    pages: [],
  };
  const two = reviseOffline({
    ...input,
    instruction: 'Remove the Keyword section and the Pages to link to section.',
  });
  expect(two.body).toBe('Intro.\n\n## Company facts\n\n- founded: 2016\n');
  expect(two.summary).toBe('Removed the sections "Keyword" and "Pages to link to".');
  const missing = reviseOffline({ ...input, instruction: 'Delete the Pricing section.' });
  expect(missing.body).toBe(body);
  expect(missing.summary).toBe(
    'Nothing was changed. Could not remove “Pricing”: the article has no section with that name.',
  );
  const commas = reviseOffline({
    ...input,
    instruction: 'Remove the Company facts section, replace tea with coffee, and make it sing',
  });
  expect(commas.body).toContain('## Keyword\n\ncoffee');
  expect(commas.body).not.toContain('Company facts');
  expect(commas.summary).toMatch(
    /^Removed the section "Company facts"\. Replaced "tea" with "coffee" \(1×\)\. Could not apply “make it sing”/,
  );
});
