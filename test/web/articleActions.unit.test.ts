import { expect, test } from 'vitest';
import { allowedFrom as domainRule } from '../../src/domain/articles/article.ts';
import { allowedFrom as pageRule } from '../../web/src/article/articleApi.ts';

test('the article page enables approve, revise, refresh and retry in exactly the states the domain allows (the web app cannot import src/, so its copy is held to it here)', () => {
  expect(pageRule).toEqual(domainRule);
});
