/** Where the HTTP endpoint listens: an address and a port (0 picks a free one). */
export interface Listen {
  host: string;
  port: number;
}

const LISTEN = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/;

/** `8080`, `0.0.0.0:8080` or `[::1]:8080`; the host defaults to loopback so nothing is exposed by accident. */
export function parseListen(s: string): Listen | null {
  const m = LISTEN.exec(s.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  const host = m[1] ? m[1].replace(/^\[(.*)\]$/, '$1') : '127.0.0.1';
  return { host, port };
}

/** Addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The host names a loopback listener answers to when --allowed-hosts is not given. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
