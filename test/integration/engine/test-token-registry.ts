/**
 * The off-ledger registry of a `splice-test-token-v1` instrument, as its admin would run it: the token-standard
 * registry API (../shared/reference/splice/token-standard: metadata, transfer-instruction) over real HTTP, answering
 * with the admin's `TokenRules` as transfer factory and disclosed contract. The test token has no registry in Splice
 * (its Daml tests pass the factory directly), so the wallet-SDK test serves this one; every answer is validated
 * against the reference YAMLs before it is sent. The token's choices need no context entries, so contexts are empty.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spliceSpecs } from '../simulator/wallet-helpers.js';

export interface DisclosedContract {
  templateId: string;
  contractId: string;
  createdEventBlob: string;
  synchronizerId: string;
}

export interface TestTokenRegistry {
  /** The registry URL to give the SDK (`registries`, `registryUrl`). */
  url: URL;
  /** Paths requested, in order (`POST /registry/...`). */
  requests: string[];
  close(): Promise<void>;
}

const APIS = { 'splice-api-token-metadata-v1': 1, 'splice-api-token-transfer-instruction-v1': 1 };

export async function startTestTokenRegistry(admin: string, instrumentId: string, rules: DisclosedContract): Promise<TestTokenRegistry> {
  const requests: string[] = [];
  const context = { choiceContextData: { values: {} }, disclosedContracts: [rules] };
  const answer = (method: string, path: string): { specPath: string; body: unknown } | undefined => {
    if (method === 'GET' && path === '/registry/metadata/v1/info') return { specPath: path, body: { adminId: admin, supportedApis: APIS } };
    if (method === 'GET' && path === '/registry/metadata/v1/instruments')
      return {
        specPath: path,
        body: { instruments: [{ id: instrumentId, name: 'Test Token', symbol: 'TT', decimals: 10, supportedApis: APIS }] },
      };
    if (method === 'POST' && path === '/registry/transfer-instruction/v1/transfer-factory')
      return { specPath: path, body: { factoryId: rules.contractId, transferKind: 'offer', choiceContext: context } };
    const choice = /^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/(accept|reject|withdraw)$/.exec(path);
    if (method === 'POST' && choice)
      return { specPath: `/registry/transfer-instruction/v1/{transferInstructionId}/choice-contexts/${choice[1] ?? ''}`, body: context };
    return undefined;
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://registry').pathname.replace(/\/{2,}/g, '/');
    requests.push(`${req.method ?? ''} ${path}`);
    req.resume();
    req.on('end', () => {
      const a = answer(req.method ?? '', path);
      const status = a ? 200 : 404;
      const body = a?.body ?? { error: `no registry operation ${req.method ?? ''} ${path}` };
      if (a) spliceSpecs().assertResponse(req.method ?? '', a.specPath, status, body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${String(port)}/`),
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
