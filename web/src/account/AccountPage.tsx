import type { Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import type { components } from '../api/v1.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { TableBox } from '../ui/TableBox.tsx';

type LimitUsage = components['schemas']['AccountPlan']['articles'];

/** Plan and usage: what the account has used of each limit, and which plan lifts it (GET /api/v1/plan). */
export function AccountPage({ me }: { me: Me }) {
  const { data, error } = useResource(() => unwrap(api.GET('/plan')), 'plan');
  const plan = data?.plan;
  return (
    <main>
      <h1>Plan and usage</h1>
      <ErrorNote error={error} />
      {plan && (
        <>
          <p>
            Account <strong>{me.account.name}</strong> is on the <strong>{plan.name}</strong> plan.
          </p>
          <TableBox label="Limits">
            <table>
              <caption>Limits</caption>
              <thead>
                <tr>
                  <th scope="col">Limit</th>
                  <th scope="col">Used</th>
                  <th scope="col">More with</th>
                </tr>
              </thead>
              <tbody>
                <LimitRow
                  label={`Articles this month (${plan.month}, UTC)`}
                  usage={plan.articles}
                />
                <LimitRow label="Projects" usage={plan.projects} />
                <LimitRow label="Webhook endpoints" usage={plan.webhookEndpoints} />
              </tbody>
            </table>
          </TableBox>
          <TableBox label="Features">
            <table>
              <caption>Features</caption>
              <thead>
                <tr>
                  <th scope="col">Feature</th>
                  <th scope="col">On this plan</th>
                </tr>
              </thead>
              <tbody>
                {plan.features.map((feature) => (
                  <tr key={feature.feature}>
                    <th scope="row">{feature.name}</th>
                    <td>
                      {feature.included
                        ? 'included'
                        : `not included: in ${feature.includedIn.join(', ') || 'no plan'}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
          <p className="note">
            The article quota counts articles started in the calendar month and resets on the 1st.
            Plans are set by whoever runs this Inkstream, with{' '}
            <code>npx inkstream accounts set-plan {me.account.name} pro</code>.
          </p>
        </>
      )}
    </main>
  );
}

function LimitRow({ label, usage }: { label: string; usage: LimitUsage }) {
  const full = usage.limit !== null && usage.used >= usage.limit;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {usage.limit === null ? (
          `${usage.used} (no cap)`
        ) : (
          <>
            <meter
              min={0}
              max={usage.limit}
              value={Math.min(usage.used, usage.limit)}
              aria-label={`${label}: ${usage.used} of ${usage.limit}`}
            />{' '}
            {usage.used} of {usage.limit}
            {full && <strong className="error"> (limit reached)</strong>}
          </>
        )}
      </td>
      <td>{usage.liftedBy ? `the ${usage.liftedBy} plan` : '—'}</td>
    </tr>
  );
}
