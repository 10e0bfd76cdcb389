import type { QualityCheck } from '../../../../domain/articles/quality.ts';
import type { CheckInput } from './checkInput.ts';

/** What the MDX safety gate kept as literal text (docs/mdx-safety.md): a warning a reviewer reads. */
export function neutralisedCheck(input: CheckInput): QualityCheck {
  if (input.neutralised.length === 0)
    return {
      name: 'neutralised',
      status: 'pass',
      message: 'The safety gate changed nothing.',
      details: [],
    };
  const details = input.neutralised.map((piece) => {
    const at =
      piece.field === 'body'
        ? input.body.indexOf(piece.excerpt.replace(/…$/, '').slice(0, 40))
        : -1;
    return {
      text: piece.excerpt,
      start: at === -1 ? null : at,
      end: at === -1 ? null : at + Math.min(piece.excerpt.length, 40),
      note: `MDX ${piece.kind} in the ${piece.field}, kept as literal text.`,
    };
  });
  return {
    name: 'neutralised',
    status: 'warn',
    message: `The safety gate kept ${details.length} piece${details.length === 1 ? '' : 's'} of code as literal text: ${[...new Set(input.neutralised.map((piece) => piece.kind))].join(', ')}.`,
    details,
  };
}
