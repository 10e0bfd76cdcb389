import type { RequestFailed } from '../api/appClient.ts';

/** A 402: what the plan lacks (the API's message) and which plans include it (its details). */
export function PlanLimit({ failure }: { failure: RequestFailed }) {
  const plans = (failure.error.details ?? [])
    .filter((detail) => detail.path === 'plan')
    .map((detail) => detail.message);
  return (
    <div role="alert" className="plan-limit">
      <p>{failure.message}</p>
      {plans.length > 0 && (
        <p>
          Included in: <strong data-testid="plans-including">{plans.join(', ')}</strong>. Ask an
          owner of the account to change the plan.
        </p>
      )}
    </div>
  );
}
