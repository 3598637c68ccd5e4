/**
 * Issue #13 item 3: one invalid-UTF-8 text frame, or one frame over the size limit, on the browser host's IPC
 * WebSocket crashed the process (no 'error' handler on the socket). Each must now close that connection with the
 * code RFC 6455 names (1007 invalid payload data, 1009 message too big, 1002 protocol error) and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { MAX_IPC_FRAME_BYTES } from '../../src/host/server.js';
import { clientFrame, closeCode, expectAlive, rawRequest, readUntilClosed, startConsole, upgradeRequest } from './net-helpers.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

/** Opens an authenticated IPC connection, sends `frames`, and returns the close code the host answers with. */
async function sendOnIpc(frames: Buffer[]): Promise<number | undefined> {
  const answer = await rawRequest(
    proc.port,
    upgradeRequest(`/ipc?token=${encodeURIComponent(proc.token)}`, { Host: `127.0.0.1:${proc.port}`, Origin: proc.origin }),
  );
  expect(answer.status).toBe(101);
  const socket = must(answer.socket, 'answer.socket');
  const closed = readUntilClosed(socket, answer.rest);
  for (const f of frames) socket.write(f);
  return closeCode((await closed).frames);
}

describe('bad frames on the IPC WebSocket', () => {
  it('a text frame that is not valid UTF-8 → close 1007, the console stays up', async () => {
    expect(await sendOnIpc([clientFrame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))])).toBe(1007);
    await expectAlive(proc);
  });

  it('a frame declaring more than the limit → close 1009 before the payload arrives, the console stays up', async () => {
    expect(await sendOnIpc([clientFrame(0x1, Buffer.from('{"type":'), { declaredLength: MAX_IPC_FRAME_BYTES + 1 })])).toBe(1009);
    await expectAlive(proc);
  });

  it('a fragmented message growing past the limit → close 1009', async () => {
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    const pieces = Math.ceil(MAX_IPC_FRAME_BYTES / piece.length) + 1;
    const frames = [clientFrame(0x1, piece, { fin: false })];
    for (let i = 1; i < pieces; i++) frames.push(clientFrame(0x0, piece, { fin: false }));
    expect(await sendOnIpc(frames)).toBe(1009);
    await expectAlive(proc);
  });

  it('reserved bits, reserved opcodes and an unmasked-length control frame → close 1002', async () => {
    expect(await sendOnIpc([clientFrame(0x1, Buffer.from('{}'), { rsv: 0b100 })])).toBe(1002);
    expect(await sendOnIpc([clientFrame(0x3, Buffer.from('{}'))])).toBe(1002);
    expect(await sendOnIpc([clientFrame(0x9, Buffer.alloc(200))])).toBe(1002);
    await expectAlive(proc);
  });
});
