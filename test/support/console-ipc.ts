/** Calls the running console's contract over its browser-host WebSocket, as the renderer does (test set-up only). */
import { WebSocket } from 'ws';
import { ConsoleClient } from '../../src/ipc/client.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import type { ConsoleProcess } from './console-process.js';

export async function withConsoleClient<T>(proc: ConsoleProcess, use: (client: ConsoleClient) => Promise<T>): Promise<T> {
  const ws = new WebSocket(`ws://127.0.0.1:${proc.port}/ipc?token=${encodeURIComponent(proc.token)}`, { headers: { origin: proc.origin } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  try {
    return await use(new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike)));
  } finally {
    ws.close();
  }
}
