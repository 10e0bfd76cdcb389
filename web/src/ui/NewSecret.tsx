import { useState } from 'react';

/** A key shown once: copy it now, it cannot be shown again. */
export function NewSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">{label}</h2>
      <p><strong>Copy it now: it is shown only once.</strong> Store it where your build or server reads secrets.</p>
      <output data-testid="new-secret"><code>{value}</code></output>
      <button type="button" onClick={() => { void navigator.clipboard?.writeText(value).then(() => setCopied(true)); }}>{copied ? 'Copied' : 'Copy'}</button>
      <button type="button" onClick={onDone}>I stored it</button>
    </section>
  );
}
