import { useId, useRef, useState } from 'react';

/**
 * A secret shown once (an API key, a signing secret): copy it now, it cannot be shown again. Where
 * the browser keeps the clipboard from the page (served over plain HTTP on a LAN address, or the
 * permission refused), Copy selects the secret and says to press the keys instead.
 */
export function NewSecret({
  label,
  value,
  onDone,
  hint = 'Store it where your build or server reads secrets.',
}: {
  label: string;
  value: string;
  onDone: () => void;
  hint?: string;
}) {
  const [copy, setCopy] = useState<'not yet' | 'copied' | 'refused'>('not yet');
  const titleId = useId();
  const secret = useRef<HTMLElement>(null);

  function selectSecret() {
    const range = document.createRange();
    range.selectNodeContents(secret.current!);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    setCopy('refused');
  }

  function copySecret() {
    if (!navigator.clipboard) return selectSecret();
    navigator.clipboard.writeText(value).then(() => setCopy('copied'), selectSecret);
  }

  return (
    <section className="secret" aria-labelledby={titleId}>
      <h2 id={titleId}>{label}</h2>
      <p>
        <strong>Copy it now: it is shown only once.</strong> {hint}
      </p>
      <output data-testid="new-secret">
        <code ref={secret}>{value}</code>
      </output>
      <button type="button" onClick={copySecret}>
        {copy === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <button type="button" onClick={onDone}>
        I stored it
      </button>
      {copy === 'refused' && (
        <p role="status">
          This browser does not let the page copy (it is not served over HTTPS, or the clipboard was
          refused). The secret is selected: press Ctrl+C, or ⌘C on a Mac.
        </p>
      )}
    </section>
  );
}
