import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { SourceLink } from './SourceLink.tsx';
import type { BrandUpdate, CompanyFact } from './types.ts';

const KINDS: ReadonlyArray<CompanyFact['kind']> = [
  'name',
  'founded',
  'location',
  'team',
  'mission',
  'offer',
  'proof_point',
  'other',
];
const KIND_NAMES: Record<CompanyFact['kind'], string> = {
  name: 'Name',
  founded: 'Founded',
  location: 'Location',
  team: 'Team size',
  mission: 'Mission',
  offer: 'Offer',
  proof_point: 'Proof point',
  other: 'Other',
};

/** A fact as edited: its source and sentence stay only while its value is the one read from them. */
type Row = { fact: CompanyFact; value: string; kind: CompanyFact['kind'] };

function toFact(row: Row): CompanyFact {
  const unchanged = row.value.trim() === row.fact.value && row.kind === row.fact.kind;
  return {
    kind: row.kind,
    value: row.value.trim(),
    sourceUrl: unchanged ? row.fact.sourceUrl : null,
    evidence: unchanged ? row.fact.evidence : null,
  };
}

/** Company facts, each with the page it was read from and the sentence on it; any can be changed, removed or added. */
export function FactsForm({
  facts,
  readOnly,
  save,
}: {
  facts: readonly CompanyFact[];
  readOnly: boolean;
  save(update: BrandUpdate): Promise<unknown>;
}) {
  const [rows, setRows] = useState<Row[]>(() =>
    facts.map((fact) => ({ fact, value: fact.value, kind: fact.kind })),
  );
  const action = useAction();
  const change = (index: number, patch: Partial<Row>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ companyFacts: rows.map(toFact) }));
  };
  const general = formMessage(action.error, ['companyFacts']);
  const blank: CompanyFact = { kind: 'other', value: '', sourceUrl: null, evidence: null };
  return (
    <form onSubmit={submit} aria-label="Company facts">
      <fieldset disabled={readOnly || action.busy}>
        {rows.length === 0 && <p>No facts yet.</p>}
        <ol className="facts">
          {rows.map((row, i) => {
            const shown = toFact(row);
            return (
              <li key={i}>
                <div className="row">
                  <label>
                    Kind of fact {i + 1}
                    <select
                      value={row.kind}
                      onChange={(event) =>
                        change(i, { kind: event.target.value as CompanyFact['kind'] })
                      }
                    >
                      {KINDS.map((kind) => (
                        <option key={kind} value={kind}>
                          {KIND_NAMES[kind]}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="grow">
                    Fact {i + 1}
                    <input
                      value={row.value}
                      onChange={(event) => change(i, { value: event.target.value })}
                      maxLength={500}
                      aria-describedby={`fact-${i}-error`}
                    />
                    <FieldError
                      id={`fact-${i}-error`}
                      message={messageFor(action.error, `companyFacts.${i}`)}
                    />
                  </label>
                  <button
                    type="button"
                    onClick={() => setRows(rows.filter((_, j) => j !== i))}
                    aria-label={`Remove fact ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
                <p className="source">
                  Source: <SourceLink url={shown.sourceUrl} />
                  {shown.evidence && (
                    <>
                      {' '}
                      — <q>{shown.evidence}</q>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          onClick={() => setRows([...rows, { fact: blank, value: '', kind: 'other' }])}
        >
          Add a fact
        </button>
        <button type="submit">Save facts</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
