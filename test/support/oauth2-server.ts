/**
 * A real OAuth 2.0 token endpoint for tests (RFC 6749 §4.4 client credentials) on node:http.
 * It checks the client's id and secret (in the form body or HTTP Basic), issues HS256 JWTs signed
 * with a test secret (so a participant configured with the same secret accepts them), counts the
 * requests it gets, and can be told to fail the next requests in specific ways.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuth2Client {
  secret: string;
  /** `sub` of the issued tokens; defaults to the client id. */
  subject?: string;
}

export type Failure =
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'hang' }
  | { kind: 'not-json'; status?: number }
  | { kind: 'redirect'; location: string };

export interface TokenRequestRecord {
  clientId: string | null;
  /** How the client authenticated: `basic` (Authorization header) or `post` (form body). */
  clientAuth: 'basic' | 'post' | 'none';
  grantType: string | null;
  audience: string | null;
  scope: string | null;
  contentType: string | null;
  outcome: 'issued' | 'refused' | 'failure-injected';
}

export interface OAuth2ServerOptions {
  clients: Record<string, OAuth2Client>;
  /** HMAC-SHA256 key for the JWTs. */
  signingSecret: string;
  /** `expires_in` of issued tokens (seconds); null = omit the field (the JWT's `exp` still says it). */
  expiresIn?: number | null;
  /** Delay before answering (ms), to make concurrent callers overlap. */
  delayMs?: number;
  issuer?: string;
}

export interface RunningOAuth2Server {
  url: string;
  tokenUrl: string;
  requests: TokenRequestRecord[];
  /** Tokens issued so far, in order (so tests can check what a participant received). */
  issued: string[];
  /** The next `count` requests fail this way, then normal service resumes. */
  failNext(failure: Failure, count?: number): void;
  setExpiresIn(seconds: number | null): void;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Claims of an HS256 JWT whose signature matches `secret`, else null. */
export function verifyHs256(token: string, secret: string): Record<string, unknown> | null {
  const [h, p, sig] = token.split('.');
  if (!h || !p || !sig) return null;
  const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) return null;
  return JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
}

const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startOAuth2Server(opts: OAuth2ServerOptions): Promise<RunningOAuth2Server> {
  const requests: TokenRequestRecord[] = [];
  const issued: string[] = [];
  const failures: Failure[] = [];
  let expiresIn = opts.expiresIn === undefined ? 3600 : opts.expiresIn;
  let delayMs = opts.delayMs ?? 0;
  const hanging = new Set<http.ServerResponse>();
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, {
          'content-type': typeof body === 'string' ? 'text/html' : 'application/json',
          'cache-control': 'no-store',
          ...headers,
        });
        res.end(text);
      };
      const handle = () => {
        if (req.method !== 'POST' || req.url !== '/token') {
          send(404, { error: 'not_found' });
          return;
        }
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        let clientId = form.get('client_id');
        let secret = form.get('client_secret');
        let clientAuth: TokenRequestRecord['clientAuth'] = secret !== null ? 'post' : 'none';
        const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        if (basic?.[1]) {
          const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
          const colon = decoded.indexOf(':');
          clientId = formDecode(decoded.slice(0, colon));
          secret = formDecode(decoded.slice(colon + 1));
          clientAuth = 'basic';
        }
        const record: TokenRequestRecord = {
          clientId,
          clientAuth,
          grantType: form.get('grant_type'),
          audience: form.get('audience'),
          scope: form.get('scope'),
          contentType: req.headers['content-type'] ?? null,
          outcome: 'failure-injected',
        };
        requests.push(record);

        const failure = failures.shift();
        if (failure) {
          if (failure.kind === 'hang') hanging.add(res);
          else if (failure.kind === 'not-json') send(failure.status ?? 200, '<html><body>Sign in</body></html>');
          else if (failure.kind === 'redirect') send(307, { moved: true }, { location: failure.location });
          else send(failure.status, failure.body);
          return;
        }
        if (record.grantType !== 'client_credentials') {
          record.outcome = 'refused';
          send(400, {
            error: 'unsupported_grant_type',
            error_description: `grant_type ${record.grantType ?? '(none)'} is not supported`,
          });
          return;
        }
        const client = clientId !== null ? opts.clients[clientId] : undefined;
        if (!client || secret === null || !safeEqual(secret, client.secret)) {
          record.outcome = 'refused';
          send(
            401,
            { error: 'invalid_client', error_description: 'Client authentication failed' },
            { 'www-authenticate': 'Basic realm="test"' },
          );
          return;
        }
        const now = Math.floor(Date.now() / 1000);
        const lifetime = expiresIn ?? 3600;
        const token = signHs256(
          {
            iss: opts.issuer ?? 'test-oauth2-server',
            sub: client.subject ?? clientId,
            ...(record.audience ? { aud: record.audience } : {}),
            ...(record.scope ? { scope: record.scope } : {}),
            iat: now,
            exp: now + lifetime,
            jti: `t${++counter}`,
          },
          opts.signingSecret,
        );
        issued.push(token);
        record.outcome = 'issued';
        send(200, { access_token: token, token_type: 'Bearer', ...(expiresIn !== null ? { expires_in: expiresIn } : {}) });
      };
      if (delayMs > 0) setTimeout(handle, delayMs);
      else handle();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    requests,
    issued,
    failNext(failure, count = 1) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    setExpiresIn(seconds) {
      expiresIn = seconds;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
