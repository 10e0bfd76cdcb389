/** The public event types an endpoint can subscribe to, exactly as the API contract names them. */
export const WEBHOOK_EVENT_TYPES = [
  'article.status_changed',
  'article.published',
  'article.revised',
  'topics.suggested',
  'brand.crawled',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by POST /webhooks/:id/test, to that endpoint; never in the event feed. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** A subscription: the sorted set of types, or null for every type (including types added later). */
export function normalizeEventFilter(
  events: readonly WebhookEventType[] | null | undefined,
): WebhookEventType[] | null {
  if (!events) return null;
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

export const wantsEvent = (filter: readonly string[] | null, type: string): boolean =>
  filter === null || filter.includes(type);
