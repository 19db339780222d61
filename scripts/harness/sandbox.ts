import { type Sandbox, type SandboxKeyName, type SandboxOptions, SANDBOX_KEYS, startSandbox } from '../../src/sandbox/index.js';

/** A fixed anchor so seeded data and assertions do not drift with the clock. */
export const TEST_NOW = '2026-11-20T12:00:00Z';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: SandboxKeyName | null;
  /** A raw Authorization header value, to test malformed ones. */
  authorization?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

/** A sandbox plus a tiny fetch wrapper, for contract tests over real HTTP. */
export interface TestApi {
  sandbox: Sandbox;
  call<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTestApi(options: SandboxOptions = {}): Promise<TestApi> {
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW, logLevel: 'silent', ...options });
  const call = async <T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const url = new URL(path, sandbox.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const key = opts.key === undefined ? 'admin' : opts.key;
    if (opts.authorization !== undefined) headers.authorization = opts.authorization;
    else if (key) headers.authorization = `Bearer ${SANDBOX_KEYS[key]}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
    const res = await fetch(url, { method, headers, body });
    const type = res.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('application/json') ? await res.json() : Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
  return {
    sandbox,
    call,
    get: <T = any>(path: string, opts?: RequestOptions) => call<T>('GET', path, opts),
    close: () => sandbox.close(),
  };
}

/** Read every page of a list endpoint. */
export async function readAll<T = any>(api: TestApi, path: string, opts: RequestOptions = {}): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 10_000; i++) {
    const query: Record<string, string | number | boolean> = { ...(opts.query ?? {}), limit: 200 };
    if (cursor) query.cursor = cursor;
    const r = await api.get(path, { ...opts, query });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data);
    if (!r.body.has_more) return out;
    cursor = r.body.next_cursor;
  }
  throw new Error('too many pages');
}
