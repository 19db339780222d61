import { describe, expect, it } from 'vitest';
import { LOOPBACK_NAMES } from '../../src/mcp/transport/http/listen.js';
import { endpointOf } from '../../src/mcp/transport/http/endpoint-url.js';

describe('the printed endpoint URL is one a client can use as it stands', () => {
  it('a concrete address is the URL itself', () => {
    expect(endpointOf('127.0.0.1', 8080, LOOPBACK_NAMES)).toEqual({ url: 'http://127.0.0.1:8080/mcp', listening: '127.0.0.1:8080', allInterfaces: false });
    expect(endpointOf('::1', 8080, LOOPBACK_NAMES).url).toBe('http://[::1]:8080/mcp');
    expect(endpointOf('10.1.2.3', 80, ['10.1.2.3']).url).toBe('http://10.1.2.3:80/mcp');
  });

  it('0.0.0.0 and :: name this machine by a loopback name the Host check lets through, and say "all interfaces"', () => {
    expect(endpointOf('0.0.0.0', 8080, ['*'])).toEqual({ url: 'http://127.0.0.1:8080/mcp', listening: 'all interfaces (0.0.0.0:8080)', allInterfaces: true });
    expect(endpointOf('0.0.0.0', 8080, ['localhost', 'mcp.example.com']).url).toBe('http://localhost:8080/mcp');
    expect(endpointOf('::', 8080, LOOPBACK_NAMES)).toEqual({ url: 'http://[::1]:8080/mcp', listening: 'all interfaces ([::]:8080)', allInterfaces: true });
  });

  it('with no loopback name allowed, the first allowed host name, with its own port when it has one', () => {
    expect(endpointOf('0.0.0.0', 8080, ['mcp.example.com']).url).toBe('http://mcp.example.com:8080/mcp');
    expect(endpointOf('0.0.0.0', 8080, ['mcp.example.com:8080', 'other.example.com']).url).toBe('http://mcp.example.com:8080/mcp');
    expect(endpointOf('::', 8080, ['[fd00::1]']).url).toBe('http://[fd00::1]:8080/mcp');
  });
});
