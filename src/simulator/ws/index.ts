/** WebSocket endpoints (AsyncAPI channels). */
import type http from 'node:http';
import { WebSocketServer } from 'ws';
import type { SimContext } from '../context.js';

export function attachWebSockets(server: http.Server, _sim: SimContext): { close(): void } {
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.close(1008, 'unsupported channel');
    });
  });
  return {
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
