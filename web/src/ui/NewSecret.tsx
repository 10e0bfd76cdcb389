import { useId, useState } from 'react';

/** A secret shown once (an API key, a signing secret): copy it now, it cannot be shown again. */
export function NewSecret({ label, value, onDone, hint = 'Store it where your build or server reads secrets.' }: { label: string; value: string; onDone: () => void; hint?: string }) {
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  return (
    <section className="secret" aria-labelledby={titleId}>
      <h2 id={titleId}>{label}</h2>
      <p><strong>Copy it now: it is shown only once.</strong> {hint}</p>
      <output data-testid="new-secret"><code>{value}</code></output>
      <button type="button" onClick={() => { void navigator.clipboard?.writeText(value).then(() => setCopied(true)); }}>{copied ? 'Copied' : 'Copy'}</button>
      <button type="button" onClick={onDone}>I stored it</button>
    </section>
  );
}
