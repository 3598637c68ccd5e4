/**
 * The one list of views. A view is one file under views/ and appears in the navigation only once it
 * works end to end: add it here (in nav order) when its channels exist — no placeholders.
 * Alt+<position> switches to it.
 */
import type { Component } from 'svelte';
import type { IconName } from './lib/icons.js';
import Dashboard from './views/Dashboard.svelte';
import Connections from './views/Connections.svelte';
import Updates from './views/Updates.svelte';
import Keys from './views/Keys.svelte';
import Signing from './views/Signing.svelte';
import Offline from './views/Offline.svelte';
import Audit from './views/Audit.svelte';
import Parties from './views/Parties.svelte';
import Users from './views/Users.svelte';
import IdentityProviders from './views/IdentityProviders.svelte';
import Contracts from './views/Contracts.svelte';
import Commands from './views/Commands.svelte';
import Packages from './views/Packages.svelte';
import Wallet from './views/Wallet.svelte';
import ExternalWallet from './views/ExternalWallet.svelte';

export interface ViewDef {
  /** Route id: `#/<id>`. */
  id: string;
  label: string;
  icon: IconName;
  component: Component;
}

/** Never empty: the shell falls back to the first view. */
export const views: readonly [ViewDef, ...ViewDef[]] = [
  { id: 'dashboard', label: 'Dashboard', icon: 'dashboard', component: Dashboard },
  { id: 'updates', label: 'Updates', icon: 'refresh', component: Updates },
  { id: 'contracts', label: 'Contracts', icon: 'copy', component: Contracts },
  { id: 'commands', label: 'Commands', icon: 'edit', component: Commands },
  { id: 'parties', label: 'Parties', icon: 'party', component: Parties },
  { id: 'users', label: 'Users', icon: 'users', component: Users },
  { id: 'idps', label: 'Identity providers', icon: 'shield', component: IdentityProviders },
  { id: 'packages', label: 'Packages', icon: 'server', component: Packages },
  { id: 'wallet', label: 'Wallet', icon: 'wallet', component: Wallet },
  { id: 'external-wallet', label: 'External wallet', icon: 'wallet', component: ExternalWallet },
  { id: 'keys', label: 'Keys', icon: 'key', component: Keys },
  { id: 'signing', label: 'Signing', icon: 'edit', component: Signing },
  { id: 'offline', label: 'Offline signer', icon: 'copy', component: Offline },
  { id: 'audit', label: 'Audit', icon: 'check', component: Audit },
  { id: 'connections', label: 'Connections', icon: 'plug', component: Connections },
];

export const defaultViewId = 'dashboard';
