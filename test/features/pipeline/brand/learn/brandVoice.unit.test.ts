import { expect, test } from 'vitest';
import {
  proseSentences,
  splitSentences,
} from '../../../../../src/features/pipeline/brand/learn/brandText.ts';
import {
  formalityOf,
  measureVoice,
  personOf,
} from '../../../../../src/features/pipeline/brand/learn/brandVoice.ts';
import { crawledPage } from '../../../../support/crawledPage.ts';

const voiceOf = (text: string) => {
  const metrics = measureVoice(proseSentences([crawledPage({ url: 'https://x.test/', text })]));
  return { person: personOf(metrics), formality: formalityOf(metrics), metrics };
};

test('sentences split at full stops but not inside "Co." or "e.g."', () => {
  expect(
    splitSentences('Crumb & Co. was founded in 2011. We bake, e.g. rye and spelt! Why? Because.'),
  ).toEqual([
    'Crumb & Co. was founded in 2011.',
    'We bake, e.g. rye and spelt!',
    'Why?',
    'Because.',
  ]);
});

test('a chatty site talking to "you" is second person and casual', () => {
  const { person, formality } = voiceOf(
    [
      "You don't need a night shift to sell fresh bread.",
      "We'll handle the orders, you'll bake.",
      "It's easy, and you're in control.",
    ].join('\n'),
  );
  expect(person).toBe('second');
  expect(formality).toBe('casual');
});

test('a corporate site describing itself in the third person is formal', () => {
  const { person, formality } = voiceOf(
    [
      'The organisation provides comprehensive advisory solutions to institutional stakeholders across multiple jurisdictions.',
      'Its methodology ensures regulatory compliance and facilitates optimal capital allocation for enterprise clients.',
      'Furthermore, the firm maintains dedicated teams for infrastructure, energy and transportation mandates in every region.',
    ].join('\n'),
  );
  expect(person).toBe('third');
  expect(formality).toBe('formal');
});

test('lines repeated on most pages are boilerplate, not voice', () => {
  const banner = 'Sign up for our newsletter to get weekly tips.';
  const pages = ['a', 'b', 'c'].map((p) =>
    crawledPage({
      url: `https://x.test/${p}`,
      text: `${banner}\nPage ${p} has its own sentence here.`,
    }),
  );
  expect(proseSentences(pages).map((s) => s.text)).not.toContain(banner);
});
