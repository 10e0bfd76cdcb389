import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { Brand, BrandUpdate } from './types.ts';

/** The voice: a summary a writer follows, how the site addresses people, how formal it is; the site's own example sentences. */
export function VoiceForm({
  voice,
  readOnly,
  save,
}: {
  voice: Brand['voice'];
  readOnly: boolean;
  save(update: BrandUpdate): Promise<unknown>;
}) {
  const [summary, setSummary] = useState(voice.summary);
  const [person, setPerson] = useState(voice.person);
  const [formality, setFormality] = useState(voice.formality);
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ voice: { summary, person, formality } }));
  };
  const general = formMessage(action.error, ['voice.summary', 'voice.person', 'voice.formality']);
  return (
    <form onSubmit={submit} aria-label="Voice">
      <fieldset disabled={readOnly || action.busy}>
        <label>
          Voice summary
          <textarea
            value={summary}
            onChange={(event) => setSummary(event.target.value)}
            rows={3}
            maxLength={2000}
            aria-describedby="voice-summary-error"
          />
          <FieldError
            id="voice-summary-error"
            message={messageFor(action.error, 'voice.summary')}
          />
        </label>
        <div className="row">
          <label>
            Addresses people as
            <select
              value={person}
              onChange={(event) => setPerson(event.target.value as typeof person)}
            >
              <option value="first">we (first person)</option>
              <option value="second">you (second person)</option>
              <option value="third">neither (third person)</option>
            </select>
          </label>
          <label>
            Formality
            <select
              value={formality}
              onChange={(event) => setFormality(event.target.value as typeof formality)}
            >
              <option value="formal">formal</option>
              <option value="neutral">neutral</option>
              <option value="casual">casual</option>
            </select>
          </label>
        </div>
        <button type="submit">Save voice</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      <p>
        About {Math.round(voice.avgSentenceWords)} words a sentence
        {voice.language ? `, written in ${voice.language}` : ''}.
      </p>
      {voice.examples.length > 0 && (
        <>
          <h3>Sentences from the site that show the voice</h3>
          <ul className="quotes">
            {voice.examples.map((example, i) => (
              <li key={i}>
                <q>{example}</q>
              </li>
            ))}
          </ul>
        </>
      )}
    </form>
  );
}
