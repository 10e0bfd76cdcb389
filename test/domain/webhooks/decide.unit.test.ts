import { describe, expect, test } from 'vitest';
import type { ErrorCode } from '../../../src/core/errors.ts';
import {
  USER_DISABLED_DETAIL,
  webhookStream,
  type WebhookEndpointCommand,
} from '../../../src/domain/webhooks/decide.ts';
import type {
  ActiveEndpoint,
  WebhookEndpointEvent,
} from '../../../src/domain/webhooks/endpoint.ts';
import { given } from '../../support/decider.ts';

const at = '2026-11-25T10:00:00.000Z';
const endpointId = 'whk_01jg0000000000000000000001';
const registration = {
  endpointId,
  accountId: 'acc_01jg0000000000000000000001',
  url: 'https://hooks.example/inkstream',
  sealedSecret: 'v1.iv.tag.data',
  at,
};

const registered: WebhookEndpointEvent = {
  type: 'WebhookEndpointRegistered',
  data: { ...registration, events: null },
};
const userDisabled: WebhookEndpointEvent = {
  type: 'WebhookEndpointDisabled',
  data: { endpointId, reason: 'user', detail: USER_DISABLED_DETAIL, at },
};
const goneDisabled: WebhookEndpointEvent = {
  type: 'WebhookEndpointDisabled',
  data: { endpointId, reason: 'gone', detail: 'The endpoint answered 410 Gone.', at },
};
const enabled: WebhookEndpointEvent = { type: 'WebhookEndpointEnabled', data: { endpointId, at } };
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpointId, at } };

type Status = 'none' | ActiveEndpoint['status'];
const endpointAt: Record<Status, WebhookEndpointEvent[]> = {
  none: [],
  enabled: [registered],
  disabled: [registered, goneDisabled],
  deleted: [registered, deleted],
};

const commands = {
  register: { type: 'RegisterEndpoint', ...registration, events: null },
  enable: { type: 'UpdateEndpoint', enabled: true, at },
  disable: { type: 'UpdateEndpoint', enabled: false, at },
  dispatcherDisables: {
    type: 'DisableEndpoint',
    reason: 'gone',
    detail: 'The endpoint answered 410 Gone.',
    at,
  },
  delete: { type: 'DeleteEndpoint', at },
} satisfies Record<string, WebhookEndpointCommand>;

/** The endpoint's life as a table: what each command decides from each status (an event, nothing, or a refusal). */
type Outcome = WebhookEndpointEvent | 'nothing' | ErrorCode;
const table: Record<Status, Record<keyof typeof commands, Outcome>> = {
  none: {
    register: registered,
    enable: 'not_found',
    disable: 'not_found',
    dispatcherDisables: 'nothing',
    delete: 'not_found',
  },
  enabled: {
    register: 'nothing',
    enable: 'nothing',
    disable: userDisabled,
    dispatcherDisables: goneDisabled,
    delete: deleted,
  },
  disabled: {
    register: 'nothing',
    enable: enabled,
    disable: 'nothing',
    dispatcherDisables: 'nothing',
    delete: deleted,
  },
  deleted: {
    register: 'nothing',
    enable: 'not_found',
    disable: 'not_found',
    dispatcherDisables: 'nothing',
    delete: 'not_found',
  },
};
const cells = (Object.keys(table) as Status[]).flatMap((status) =>
  (Object.keys(commands) as Array<keyof typeof commands>).map(
    (command) => [status, command, table[status][command]] as const,
  ),
);

describe("every cell of the endpoint's life", () => {
  test.each(cells)('from %s, %s', (status, command, outcome) => {
    const endpoint = given(webhookStream, ...endpointAt[status]);
    expect(endpoint.state.status).toBe(status);
    const decision = endpoint.when(commands[command]);
    if (outcome === 'nothing') decision.thenNothing();
    else if (typeof outcome === 'string') decision.thenFails(outcome);
    else decision.thenYields(outcome);
  });

  test('a user can enable an endpoint whatever disabled it', () => {
    given(webhookStream, registered, userDisabled).when(commands.enable).thenYields(enabled);
    const failing: WebhookEndpointEvent = {
      type: 'WebhookEndpointDisabled',
      data: { endpointId, reason: 'failing', detail: 'Failing for 3 days.', at },
    };
    expect(
      given(webhookStream, registered, failing).when(commands.enable).thenYields(enabled),
    ).toMatchObject({ status: 'enabled', disabled: null });
  });
});

describe('the event filter', () => {
  test('is stored sorted and without repeats; the same filter again decides nothing', () => {
    given(webhookStream)
      .when({
        ...commands.register,
        events: ['brand.crawled', 'article.published', 'brand.crawled'],
      })
      .thenYields({
        type: 'WebhookEndpointRegistered',
        data: { ...registration, events: ['article.published', 'brand.crawled'] },
      });
    given(webhookStream, registered)
      .when({ type: 'UpdateEndpoint', events: ['article.revised'], at })
      .thenYields({
        type: 'WebhookEndpointUpdated',
        data: { endpointId, events: ['article.revised'], at },
      });
    given(webhookStream, registered)
      .when({ type: 'UpdateEndpoint', events: null, at })
      .thenNothing();
  });

  test('changes on a disabled endpoint too, together with enabling it', () => {
    given(webhookStream, ...endpointAt.disabled)
      .when({ type: 'UpdateEndpoint', events: ['topics.suggested'], enabled: true, at })
      .thenYields(
        { type: 'WebhookEndpointUpdated', data: { endpointId, events: ['topics.suggested'], at } },
        enabled,
      );
  });
});

describe('the description', () => {
  test('is kept on registration, changed and removed by an update, and the same again decides nothing', () => {
    const described = given(webhookStream)
      .when({ ...commands.register, description: 'Slack relay' })
      .thenYields({
        type: 'WebhookEndpointRegistered',
        data: { ...registration, events: null, description: 'Slack relay' },
      });
    expect(described).toMatchObject({ description: 'Slack relay' });
    given(webhookStream, registered)
      .when({ type: 'UpdateEndpoint', description: 'Zapier', at })
      .thenYields({
        type: 'WebhookEndpointDescribed',
        data: { endpointId, description: 'Zapier', at },
      });
    const withOne: WebhookEndpointEvent = {
      type: 'WebhookEndpointDescribed',
      data: { endpointId, description: 'Zapier', at },
    };
    given(webhookStream, registered, withOne)
      .when({ type: 'UpdateEndpoint', description: 'Zapier', at })
      .thenNothing();
    given(webhookStream, registered, withOne)
      .when({ type: 'UpdateEndpoint', description: null, at })
      .thenYields({
        type: 'WebhookEndpointDescribed',
        data: { endpointId, description: null, at },
      });
    expect(given(webhookStream, registered).state).toMatchObject({ description: null }); // logged before descriptions existed
  });
});
