/** The single object the Electron preload exposes to the renderer (window.consoleApi). */
import type { Transport } from './client.js';

export type ConsoleApi = Transport;

export const PRELOAD_GLOBAL = 'consoleApi';
