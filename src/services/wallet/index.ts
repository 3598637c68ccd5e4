/** Splice wallet services: validator client, internal-user wallet, external-party wallet, local wallet store. */
export { ValidatorClient } from './validator-client.js';
export { WalletService } from './wallet-service.js';
export type { WalletDeps } from './wallet-clients.js';
export { ExternalWallet, type ExternalWalletDeps } from './external-wallet.js';
export { WalletStore } from './wallet-store.js';
export { mintDemoToken } from './demo-token.js';
