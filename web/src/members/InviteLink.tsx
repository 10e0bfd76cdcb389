import { useState } from 'react';
import type { Invited } from '../api/appClient.ts';
import { Time } from '../ui/Time.tsx';

/** The invite link, shown once: Inkstream sends no email, so the owner passes it on. */
export function InviteLink({ invited, onDone }: { invited: Invited; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const who = invited.member.email ?? 'the new member';
  return (
    <section className="secret" aria-labelledby="invite-link-title">
      <h2 id="invite-link-title">Invite link for {who}</h2>
      <p>
        <strong>Inkstream sends no email: copy this link and send it to {who} yourself.</strong> It
        is shown only now, works once, and expires <Time at={invited.inviteLinkExpiresAt} />. Lost
        it? Remove the invitation and invite again.
      </p>
      <output data-testid="invite-link">
        <code>{invited.inviteLink}</code>
      </output>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(invited.inviteLink).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copied' : 'Copy link'}
      </button>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}
