/**
 * An HTTP reverse proxy in front of a real participant (the simulator) that passes selected
 * responses on slowly, so a read takes long enough to be cancelled, and records what happened on
 * both sides: whether the console closed its socket before the answer was complete, and whether
 * the request to the participant was dropped with it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface SlowRead {
  url: string;
  /** Bytes of the participant's answer passed on to the console so far. */
  bytesSent: number;
  /** The console closed the connection before the answer was complete. */
  closedEarly: boolean;
  /** The proxy dropped its request to the participant because the console went away. */
  upstreamAborted: boolean;
  /** The whole answer reached the console. */
  completed: boolean;
}

export interface SlowParticipant {
  url: string;
  reads: SlowRead[];
  close(): Promise<void>;
}

export interface SlowOptions {
  /** Which request paths are slowed down; every other request passes at full speed. */
  slow: (path: string) => boolean;
  /** Passed on per tick (default 2 KiB every 100 ms). */
  bytesPerTick?: number;
  tickMs?: number;
  /**
   * After passing on this many bytes of a slowed answer, hold the rest until the console closes the connection:
   * a participant stalled mid-answer, so a test can cancel without racing the answer's end however slow the machine.
   */
  holdAfterBytes?: number;
}

export async function startSlowParticipant(target: string, opts: SlowOptions): Promise<SlowParticipant> {
  const upstream = new URL(target);
  const bytesPerTick = opts.bytesPerTick ?? 2048;
  const tickMs = opts.tickMs ?? 100;
  const reads: SlowRead[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const slow = opts.slow(path);
    const read: SlowRead = { url: path, bytesSent: 0, closedEarly: false, upstreamAborted: false, completed: false };
    if (slow) reads.push(read);
    let upstreamEnded = false;
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!slow) {
          answer.pipe(res);
          return;
        }
        // Read the participant's answer no faster than it is passed on, so TCP backpressure holds
        // the participant's socket open mid-answer as a slow network would.
        answer.pause();
        answer.on('end', () => (upstreamEnded = true));
        const timer = setInterval(() => {
          if (res.destroyed) {
            clearInterval(timer);
            return;
          }
          const hold = opts.holdAfterBytes;
          if (hold !== undefined && read.bytesSent >= hold) return;
          const want = hold === undefined ? bytesPerTick : Math.min(bytesPerTick, hold - read.bytesSent);
          const piece = (answer.read(want) ??
            (answer.readableLength > 0 ? answer.read(Math.min(answer.readableLength, want)) : null)) as Buffer | null;
          if (piece) {
            res.write(piece);
            read.bytesSent += piece.length;
          } else if (answer.readableEnded || upstreamEnded) {
            clearInterval(timer);
            read.completed = true;
            res.end();
          }
          // Otherwise nothing is buffered yet: read() above asked the socket for more.
        }, tickMs);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => {
      if (read.completed || res.writableFinished) return;
      read.closedEarly = true;
      if (!upstreamEnded) {
        read.upstreamAborted = true;
        out.destroy();
      }
    });
    req.pipe(out);
  });
  // WebSocket upgrades (the live update and completion streams) pass through untouched.
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const up = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      const raw = req.rawHeaders;
      for (const [i, name] of raw.entries()) {
        if (i % 2 === 0) lines.push(`${name}: ${name.toLowerCase() === 'host' ? upstream.host : (raw[i + 1] ?? '')}`);
      }
      up.write(lines.join('\r\n') + '\r\n\r\n');
      up.write(head);
      socket.pipe(up).pipe(socket);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
