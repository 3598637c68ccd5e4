/**
 * A lying participant for tests: an HTTP proxy in front of the simulator that rewrites `prepare` answers
 * (the simulator has no fault injection of its own). Counts execute calls, which must stay at 0 for tampered prepares.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';

export type TamperKind =
  | 'none'
  | 'hash-replaced'
  | 'byte-flipped'
  | 'truncated'
  | 'command-id-changed'
  | 'node-argument-changed'
  | 'other-transaction'
  | 'scheme-v3'
  | 'act-as-changed-rehashed'
  | 'not-base64';

export const TAMPER_KINDS: TamperKind[] = [
  'hash-replaced',
  'byte-flipped',
  'truncated',
  'command-id-changed',
  'node-argument-changed',
  'other-transaction',
  'scheme-v3',
  'act-as-changed-rehashed',
  'not-base64',
];

interface Prepared {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
}

export interface TamperProxy {
  url: string;
  kind: TamperKind;
  executes: number;
  /** A party to put into actAs for `act-as-changed-rehashed`. */
  otherParty: string;
  close(): Promise<void>;
}

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');

async function tamper(kind: TamperKind, p: Prepared, previous: Prepared | null, otherParty: string): Promise<Prepared> {
  const tx = () => PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
  switch (kind) {
    case 'none':
      return p;
    case 'hash-replaced':
      return { ...p, preparedTransactionHash: b64(Buffer.alloc(32, 0x5a)) };
    case 'byte-flipped': {
      const bytes = Buffer.from(p.preparedTransaction, 'base64');
      bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
      return { ...p, preparedTransaction: b64(bytes) };
    }
    case 'truncated':
      return { ...p, preparedTransaction: p.preparedTransaction.slice(0, Math.floor(p.preparedTransaction.length / 2)).replace(/=+$/, '') };
    case 'command-id-changed': {
      const t = tx();
      t.metadata!.submitterInfo!.commandId = 'attacker-command';
      return { ...p, preparedTransaction: b64(PreparedTransaction.toBinary(t)) };
    }
    case 'node-argument-changed': {
      const t = tx();
      const node = t.transaction!.nodes[0]!;
      if (node.versionedNode.oneofKind === 'v1') {
        const nt = node.versionedNode.v1.nodeType;
        if (nt.oneofKind === 'create') nt.create.signatories = [...nt.create.signatories, otherParty];
        else if (nt.oneofKind === 'exercise') nt.exercise.actingParties = [...nt.exercise.actingParties, otherParty];
      }
      return { ...p, preparedTransaction: b64(PreparedTransaction.toBinary(t)) };
    }
    case 'other-transaction':
      if (!previous) throw new Error('other-transaction needs an earlier prepare');
      return { ...p, preparedTransaction: previous.preparedTransaction };
    case 'scheme-v3':
      return { ...p, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' };
    case 'act-as-changed-rehashed': {
      // A consistent transaction (hash recomputed) that acts for somebody else: must not be signed for our party.
      const t = tx();
      t.metadata!.submitterInfo!.actAs = [otherParty];
      const encoded = b64(PreparedTransaction.toBinary(t));
      return { ...p, preparedTransaction: encoded, preparedTransactionHash: await hashPreparedTransaction(encoded, 'base64') };
    }
    case 'not-base64':
      return { ...p, preparedTransaction: '!!!not base64!!!' };
  }
}

export async function startTamperProxy(target: string): Promise<TamperProxy> {
  let previous: Prepared | null = null;
  const state = { kind: 'none' as TamperKind, executes: 0, otherParty: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = req.url ?? '/';
        if (path.startsWith('/v2/interactive-submission/execute')) state.executes++;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const upstream = await fetch(target + path, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        let body = Buffer.from(await upstream.arrayBuffer());
        if (path === '/v2/interactive-submission/prepare' && upstream.ok) {
          const honest = JSON.parse(body.toString('utf8')) as Prepared;
          const out = await tamper(state.kind, honest, previous, state.otherParty);
          previous = honest;
          body = Buffer.from(JSON.stringify(out));
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      })().catch((err: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }) as TamperProxy;
}
