import type { IncomingHttpHeaders } from 'node:http';

/**
 * DNS-rebinding protection: a page on another site can make a browser send requests to a
 * server on this machine under a name the attacker controls. Such requests carry that name
 * in Host (and the page's origin in Origin), so both must name a host on the allow-list.
 * An entry is a host name (any port) or host:port; `*` accepts any.
 */
export function refusedHostOrOrigin(headers: IncomingHttpHeaders, allowed: readonly string[]): string | null {
  if (allowed.includes('*')) return null;
  const host = headers.host;
  if (!host) return 'Missing Host header.';
  const hostUrl = parseHost(`http://${host}`);
  if (!hostUrl || !matches(hostUrl, allowed)) return `Host ${JSON.stringify(host)} is not allowed (--allowed-hosts).`;
  const origin = headers.origin;
  if (origin === undefined) return null;
  const originUrl = parseHost(origin);
  if (!originUrl || !matches(originUrl, allowed)) return `Origin ${JSON.stringify(origin)} is not allowed (--allowed-hosts).`;
  return null;
}

function parseHost(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.hostname ? u : null;
  } catch {
    return null;
  }
}

function matches(u: URL, allowed: readonly string[]): boolean {
  const name = u.hostname.toLowerCase();
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    return e === name || (u.port !== '' && e === `${name}:${u.port}`);
  });
}
