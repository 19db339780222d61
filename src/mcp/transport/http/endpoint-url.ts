import { refusedHostOrOrigin } from './guard.js';

/** The unspecified addresses: a listener there answers on every interface, and no client can connect to the address itself. */
const ALL_INTERFACES = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

export interface Endpoint {
  /** The /mcp URL a client can use as printed: its host is one --allowed-hosts lets through. */
  url: string;
  /** Where the listener is bound, said plainly: "127.0.0.1:8080", or "all interfaces (0.0.0.0:8080)". */
  listening: string;
  allInterfaces: boolean;
}

const bracketed = (address: string) => (address.includes(':') ? `[${address}]` : address);

/**
 * The endpoint's URL from the bound address. A wildcard bind (0.0.0.0, ::) is not an address a
 * client can use: the URL names this machine by a loopback name the Host check lets through,
 * else the first allowed host name.
 */
export function endpointOf(address: string, port: number, allowed: readonly string[]): Endpoint {
  const bound = `${bracketed(address)}:${port}`;
  if (!ALL_INTERFACES.has(address)) return { url: `http://${bound}/mcp`, listening: bound, allInterfaces: false };
  const loopback = address === '0.0.0.0' ? ['127.0.0.1', 'localhost'] : ['[::1]', 'localhost', '127.0.0.1'];
  const passes = (host: string) => refusedHostOrOrigin({ host }, allowed) === null;
  const local = loopback.map((h) => `${h}:${port}`).find(passes);
  const named = allowed.filter((h) => h !== '*').map((h) => (/:\d+$/.test(h) && !h.endsWith(']') ? h : `${h}:${port}`));
  const host = local ?? named.find(passes) ?? `${loopback[0]}:${port}`;
  return { url: `http://${host}/mcp`, listening: `all interfaces (${bound})`, allInterfaces: true };
}
