import { capitalize, contentTokens } from '../text.ts';
import type { BrandInput, CompanyFact } from '../writer.ts';

/** A company fact as a sentence about the brand; facts already written as sentences pass through. */
export function factSentence(fact: CompanyFact, brand: string): string {
  const full = fact.value.trim();
  const value = full.replace(/[.!]+$/, '');
  const kind = fact.kind.toLowerCase();
  if (/[.!?]$/.test(full) && value.split(/\s+/).length > 5) return full;
  if (/found|since|established|year/.test(kind))
    return `${brand} has been doing this work since ${value}.`;
  if (/location|headquarter|city|country|based|office/.test(kind))
    return `${brand} is based in ${value}.`;
  if (/product|service|offer|feature|solution/.test(kind)) return `${brand} offers ${value}.`;
  if (/mission|value|belief|principle|promise/.test(kind))
    return `${brand}'s guiding principle is simple: ${value}.`;
  if (/customer|client|audience|market/.test(kind)) return `${brand} works with ${value}.`;
  if (/award|certif|accredit/.test(kind)) return `${brand} holds ${value}.`;
  if (/team|employee|staff|size/.test(kind)) return `${brand}'s team: ${value}.`;
  return `${capitalize(fact.kind)} at ${brand}: ${value}.`;
}

/** Facts that touch the topic first, then the rest in the brand's order. */
export function factsFor(
  brand: BrandInput,
  topicTokens: ReadonlySet<string>,
  limit: number,
): CompanyFact[] {
  const touches = (fact: CompanyFact): boolean =>
    contentTokens(`${fact.kind} ${fact.value}`).some((token) => topicTokens.has(token));
  return [
    ...brand.companyFacts.filter(touches),
    ...brand.companyFacts.filter((fact) => !touches(fact)),
  ].slice(0, limit);
}
