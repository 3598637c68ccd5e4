/** All handlers of the contract; the types make a missing channel a compile error. */
import type { Handlers, SubscriptionHandlers } from '../../ipc/router.js';
import { coreHandlers, coreSubscriptionHandlers, type HandlerDeps } from './core.js';
import { updatesHandlers, updatesSubscriptionHandlers } from './updates.js';
import { adminHandlers } from './admin.js';
import { signingHandlers } from './signing.js';
import { signingKeyHandlers } from './signing-keys.js';
import { packagesHandlers } from './packages.js';
import { contractsHandlers } from './contracts.js';
import { commandsHandlers, commandsSubscriptionHandlers } from './commands.js';
import { walletHandlers, walletSubscriptionHandlers, type WalletDeps } from './wallet.js';
import { exportsSubscriptionHandlers, type ExportsDeps } from './exports.js';

export type { HandlerDeps };

export function createHandlers(d: HandlerDeps & WalletDeps): Handlers {
  return {
    ...coreHandlers(d),
    ...updatesHandlers(d),
    ...adminHandlers(d),
    ...signingHandlers(d),
    ...signingKeyHandlers(d),
    ...packagesHandlers(d),
    ...contractsHandlers(d),
    ...commandsHandlers(d),
    ...walletHandlers(d),
  };
}

export function createSubscriptionHandlers(d: ExportsDeps & WalletDeps): SubscriptionHandlers {
  return {
    ...coreSubscriptionHandlers(d),
    ...updatesSubscriptionHandlers(d),
    ...commandsSubscriptionHandlers(d),
    ...walletSubscriptionHandlers(d),
    ...exportsSubscriptionHandlers(d),
  };
}
