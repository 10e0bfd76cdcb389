import type { CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import type { CheckInput } from './checkInput.ts';

const LINK = /\]\(([^)\s]+)[^)]*\)/g;

/**
 * Links in the body lead only to the site (its pages, its sitemap, Inkstream's published
 * articles): any other the writer made plain text, and this check names them (warn).
 */
export function linksCheck(input: CheckInput): QualityCheck {
  const kept = [...input.body.matchAll(LINK)].length;
  if (input.removedLinks.length === 0) {
    return {
      name: 'links',
      status: 'pass',
      message: kept
        ? `${kept} link${kept === 1 ? '' : 's'}, all to the site.`
        : 'The body has no links.',
      details: [],
    };
  }
  const details: CheckFinding[] = input.removedLinks.map((link) => {
    const at = link.text ? input.body.indexOf(link.text) : -1;
    return {
      text: link.text,
      start: at === -1 ? null : at,
      end: at === -1 ? null : at + link.text.length,
      note: `Linked to ${link.url}, which is not on the site; kept as plain text.`,
      source: null,
    };
  });
  return {
    name: 'links',
    status: 'warn',
    message: `${details.length} link${details.length === 1 ? '' : 's'} led off the site and became plain text.`,
    details,
  };
}
