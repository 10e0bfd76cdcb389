import type { Brand, BrandPart, CrawlChanges } from './types.ts';

/** Lines saying how one part changed between two versions of the brand, for the re-crawl summary. */
export function partChanges(
  part: BrandPart | 'palette',
  before: CrawlChanges['before'],
  now: Brand,
): string[] {
  switch (part) {
    case 'companyFacts': {
      const label = (fact: Brand['companyFacts'][number]) =>
        `${fact.kind.replace('_', ' ')}: ${fact.value}`;
      return listChanges((before.companyFacts ?? []).map(label), now.companyFacts.map(label));
    }
    case 'voiceTraits':
      return listChanges(before.voiceTraits ?? [], now.voiceTraits);
    case 'doDont':
      return [
        ...listChanges(before.doDont?.do ?? [], now.doDont.do).map((line) => `do, ${line}`),
        ...listChanges(before.doDont?.dont ?? [], now.doDont.dont).map((line) => `don't, ${line}`),
      ];
    case 'voice':
      return fieldChanges(before.voice ?? {}, now.voice, [
        'summary',
        'person',
        'formality',
        'avgSentenceWords',
        'language',
        'examples',
      ]);
    case 'coverStyle':
      return fieldChanges(before.coverStyle ?? {}, now.coverStyle, [
        'mood',
        'shapes',
        'typography',
      ]);
    case 'palette':
      return fieldChanges(before.palette ?? {}, now.palette, [
        'primary',
        'accent',
        'background',
        'text',
        'colors',
      ]);
    default: {
      const unknown: never = part;
      return [String(unknown)];
    }
  }
}

/** "added: X" and "removed: Y" for two lists of lines. */
export function listChanges(before: readonly string[], now: readonly string[]): string[] {
  const added = now.filter((line) => !before.includes(line));
  const removed = before.filter((line) => !now.includes(line));
  return [...added.map((line) => `added: ${line}`), ...removed.map((line) => `removed: ${line}`)];
}

function fieldChanges<T extends object>(
  before: Partial<T>,
  now: T,
  fields: ReadonlyArray<keyof T & string>,
): string[] {
  const show = (value: unknown) =>
    Array.isArray(value)
      ? `${value.length} item${value.length === 1 ? '' : 's'}`
      : value === null || value === undefined
        ? 'none'
        : String(value);
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(now[field]))
    .map((field) => `${field}: was ${show(before[field])}, now ${show(now[field])}`);
}
