/** Complete handler sets for router tests: the channels under test, every other one refusing. */
import { channels, subscriptions } from '../../src/ipc/contract.js';
import { ConsoleError } from '../../src/ipc/errors.js';
import type { Handlers, SubscriptionHandlers } from '../../src/ipc/router.js';

export function withHandlers(partial: Partial<Handlers>): Handlers {
  const all: Record<string, unknown> = {};
  for (const name of Object.keys(channels)) {
    all[name] =
      (partial as Record<string, unknown>)[name] ??
      (() => Promise.reject(new ConsoleError('INTERNAL', `${name} is not part of this test`)));
  }
  return all as Handlers;
}

export function withSubscriptions(partial: Partial<SubscriptionHandlers>): SubscriptionHandlers {
  const all: Record<string, unknown> = {};
  for (const name of Object.keys(subscriptions)) {
    all[name] = (partial as Record<string, unknown>)[name] ?? (() => () => {});
  }
  return all as SubscriptionHandlers;
}
