import { expect, test } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { decideEndpoint } from '../../../src/domain/webhooks/decide.ts';
import {
  evolveEndpoint,
  initialEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from '../../../src/domain/webhooks/endpoint.ts';

const at = '2026-01-01T00:00:00.000Z';
const registered: WebhookEndpointEvent = {
  type: 'WebhookEndpointRegistered',
  data: {
    endpointId: 'whk_1',
    accountId: 'acc_1',
    url: 'https://hooks.example/x',
    events: null,
    sealedSecret: 'v1.a.b.c',
    at,
  },
};
const fold = (...events: WebhookEndpointEvent[]): WebhookEndpoint =>
  events.reduce(evolveEndpoint, initialEndpoint());

test('registering normalises the event filter and is a no-op when retried', () => {
  const events = decideEndpoint(
    {
      type: 'RegisterEndpoint',
      endpointId: 'whk_1',
      accountId: 'acc_1',
      url: 'https://hooks.example/x',
      events: ['brand.crawled', 'article.published', 'brand.crawled'],
      sealedSecret: 's',
      at,
    },
    initialEndpoint(),
  );
  expect(events[0].data).toMatchObject({ events: ['article.published', 'brand.crawled'] });
  expect(
    decideEndpoint(
      {
        type: 'RegisterEndpoint',
        endpointId: 'whk_1',
        accountId: 'acc_1',
        url: 'u',
        events: null,
        sealedSecret: 's',
        at,
      },
      fold(registered),
    ),
  ).toEqual([]);
});

test('updates decide only what changes; a user disable records its reason', () => {
  const state = fold(registered);
  expect(
    decideEndpoint({ type: 'UpdateEndpoint', events: null, enabled: true, at }, state),
  ).toEqual([]);
  const disabled = decideEndpoint({ type: 'UpdateEndpoint', enabled: false, at }, state);
  expect(disabled).toEqual([
    {
      type: 'WebhookEndpointDisabled',
      data: { endpointId: 'whk_1', reason: 'user', detail: expect.any(String), at },
    },
  ]);
  expect(
    decideEndpoint(
      { type: 'UpdateEndpoint', enabled: true, at },
      fold(registered, ...disabled),
    ).map((e) => e.type),
  ).toEqual(['WebhookEndpointEnabled']);
});

test("the dispatcher's disable happens once, and never to a deleted endpoint", () => {
  const disable = { type: 'DisableEndpoint', reason: 'gone', detail: '410', at } as const;
  const first = decideEndpoint(disable, fold(registered));
  expect(first).toHaveLength(1);
  expect(decideEndpoint(disable, fold(registered, ...first))).toEqual([]);
  const deleted = fold(registered, {
    type: 'WebhookEndpointDeleted',
    data: { endpointId: 'whk_1', at },
  });
  expect(decideEndpoint(disable, deleted)).toEqual([]);
});

test('a deleted or unknown endpoint cannot be updated or deleted', () => {
  const deleted = fold(registered, {
    type: 'WebhookEndpointDeleted',
    data: { endpointId: 'whk_1', at },
  });
  for (const state of [initialEndpoint(), deleted]) {
    for (const command of [
      { type: 'UpdateEndpoint', enabled: false, at },
      { type: 'DeleteEndpoint', at },
    ] as const) {
      let caught: unknown;
      try {
        decideEndpoint(command, state);
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught) && caught.code).toBe('not_found');
    }
  }
});
