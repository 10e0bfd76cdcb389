import { useState } from 'react';
import { app, type Invited, type Me } from '../api/appClient.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { InviteForm } from './InviteForm.tsx';
import { InviteLink } from './InviteLink.tsx';
import { MemberRow } from './MemberRow.tsx';

/** The account's members: everyone reads the list; owners invite, change roles and remove. */
export function MembersPage({ me }: { me: Me }) {
  const { data, error, reload } = useResource(() => app.members(), 'members');
  const [invited, setInvited] = useState<Invited | null>(null);
  const manage = me.member.role === 'owner';
  return (
    <main>
      <h1>Members</h1>
      {!manage && (
        <p>Only owners of the account invite members, change roles and remove members.</p>
      )}
      <ErrorNote error={error} />
      {invited && <InviteLink invited={invited} onDone={() => setInvited(null)} />}
      {manage && (
        <InviteForm
          onInvited={(result) => {
            setInvited(result);
            void reload();
          }}
        />
      )}
      {data && (
        <table className="stack">
          <caption>Members of {me.account.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {manage && (
                <th scope="col">
                  <span className="hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {data.members.map((member) => (
              <MemberRow
                key={member.id}
                member={member}
                manage={manage}
                isMe={member.id === me.member.id}
                onChanged={reload}
              />
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
