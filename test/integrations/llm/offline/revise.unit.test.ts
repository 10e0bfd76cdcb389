import { expect, test } from 'vitest';
import { countWords } from '../../../../src/mdx/mdx.ts';
import { createOfflineWriter } from '../../../../src/integrations/llm/offline/index.ts';
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
const revise = (instruction: string) => writer.reviseArticle({ body, instruction, brand, topic, outline: [], pages });

test('"shorten" halves the paragraphs and lists and says by how much', async () => {
  const result = await revise('Please shorten it.');
  expect(countWords(result.body)).toBeLessThan(countWords(body));
  expect(result.body).toContain('## Storage');
  expect(result.body).not.toContain('Not the fridge');
  expect(result.summary).toBe(`Shortened the article from ${countWords(body)} to ${countWords(result.body)} words.`);
  expect(result).toMatchObject({ provider: 'offline', usage: { totalTokens: 0 } });
});

test('"add a section about X" adds it before the conclusion', async () => {
  const result = await revise('Add a section about choosing a teapot');
  const headings = result.body.match(/^## .+$/gm);
  expect(headings).toEqual(['## Water temperature', '## Storage', '## Choosing a teapot', '## Conclusion']);
  expect(result.body).toMatch(/Choosing a teapot deserves a closer look\. .*Fernleaf Tea/);
  expect(result.summary).toBe('Added a section "Choosing a teapot".');
});

test('"more formal" expands contractions and casual phrasing', async () => {
  const result = await revise('Make it more formal');
  expect(result.body).toContain('It is easy to get wrong, and you will taste the difference.');
  expect(result.body).toContain('helps many people');
  expect(result.summary).toMatch(/more formal \(3 informal phrasings changed\)/);
});

test('"mention X" works it into the introduction; several clauses apply in turn', async () => {
  const result = await revise('Mention our free samples and remove the section about storage');
  expect(result.body.split('## ')[0]).toContain('It is also worth mentioning our free samples.');
  expect(result.body).not.toContain('## Storage');
  expect(result.summary).toBe('Mentioned our free samples in the introduction. Removed the section "Storage".');
});

test('replacing and banning words', async () => {
  expect((await revise('Replace "kettle" with "teapot"')).body).toContain('A teapot with temperature control');
  const banned = await revise("Don't use the word airtight");
  expect(banned.body).not.toMatch(/airtight/i);
  expect(banned.summary).toBe('Removed "airtight" (2 occurrences).');
});

test('an instruction it cannot apply becomes an editor\'s note, never a silent no-op', async () => {
  const result = await revise('Make the intro punchier');
  expect(result.body).toMatch(/## Editor's Note\n\nAn editor asked for this change: “Make the intro punchier”\./);
  expect(result.summary).toMatch(/could not apply automatically/);
});

test('the brand\'s don\'ts hold after a revision too', async () => {
  const result = await revise('Add a section about revolutionary brewing!');
  expect(result.body).not.toMatch(/revolutionary|!/i);
});

test('revisions are deterministic', async () => {
  expect(await revise('Shorten it and make it more formal')).toEqual(await revise('Shorten it and make it more formal'));
});
