import { expect, test } from 'vitest';
import { RequestFailed } from '../../web/src/api/appClient.ts';
import { namesField } from '../../web/src/api/fieldPath.ts';

test('hostile and empty paths name no field they do not spell out', () => {
  expect(namesField('body.__proto__', 'constructor')).toBe(false);
  expect(namesField('body.constructor', '__proto__')).toBe(false);
  expect(namesField('body.__proto__.polluted', 'polluted')).toBe(false);
  expect(namesField('body.toString', 'events')).toBe(false);
  expect(namesField('', 'events')).toBe(false);
  expect(namesField('body', 'events')).toBe(false);
  expect(namesField('body.', 'events')).toBe(false);
  expect(namesField('...', 'events')).toBe(false);
  expect(namesField('[]', 'events')).toBe(false);
  expect(namesField('body.events', '')).toBe(false);
  expect(namesField('body.events', '.')).toBe(false);
  expect(namesField('body.eventsLog', 'events')).toBe(false);
  expect(namesField('body.event', 'events')).toBe(false);
  expect(namesField('query.events', 'events')).toBe(false);
  expect(namesField('body.settings.model', 'settings.cadence')).toBe(false);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('an issue lands on its field whichever way the path is written, and on the field that contains it', () => {
  expect(namesField('body.events', 'events')).toBe(true);
  expect(namesField('body.events.0', 'events')).toBe(true);
  expect(namesField('events[0]', 'events')).toBe(true);
  expect(namesField('body.events[0].type', 'events')).toBe(true);
  expect(namesField('body..events', 'events')).toBe(true);
  expect(namesField('body.settings.cadence.timezone', 'settings.cadence.timezone')).toBe(true);
  expect(namesField('body.settings.cadence.timezone', 'settings.cadence')).toBe(true);
  expect(namesField('body.__proto__', '__proto__')).toBe(true);
  expect(namesField('body.body', 'body')).toBe(true);
});

test('a form asks the error for its field and gets the first issue that names it', () => {
  const failure = new RequestFailed({
    status: 400,
    code: 'validation_failed',
    message: 'Invalid request body',
    details: [
      { path: 'body.__proto__', message: 'not allowed' },
      { path: 'body.events.1', message: 'unknown event type' },
      { path: 'body.url', message: 'an https:// URL' },
    ],
  });
  expect(failure.fieldMessage('events')).toBe('unknown event type');
  expect(failure.fieldMessage('url')).toBe('an https:// URL');
  expect(failure.fieldMessage('constructor')).toBeUndefined();
  expect(failure.fieldMessage('description')).toBeUndefined();
  expect(
    new RequestFailed({ status: 409, code: 'conflict', message: 'taken' }).fieldMessage('events'),
  ).toBeUndefined();
});
