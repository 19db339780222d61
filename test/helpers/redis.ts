import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A real redis-server of the test's own, on a free loopback port (never 6379, which the machine's own Redis may hold). */
export interface TestRedis {
  url: string;
  port: number;
  /** An admin connection for the test: FLUSHALL, KEYS, INFO, CLIENT LIST… */
  admin: Redis;
  /** Connections the server has open now, the admin connection excluded. */
  clients(): Promise<number>;
  /** Kill the server and start a new one on the same port: every key is gone, connections drop. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function launch(port: number): ChildProcess {
  // No persistence: a restart must come back empty, as after a FLUSHALL.
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function untilReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline && !exited) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // Not listening yet.
    } finally {
      probe.disconnect();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not start on port ${port}`);
}

export async function startRedis(): Promise<TestRedis> {
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it)');
  }
  const port = await freePort();
  let child = launch(port);
  await untilReady(port, child);
  const admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  const stopChild = async (c: ChildProcess) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGKILL');
    await once(c, 'exit');
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    admin,
    clients: async () => {
      const list = (await admin.client('LIST')) as string;
      return list.split('\n').filter((l) => l.trim() !== '').length - 1;
    },
    restart: async () => {
      await stopChild(child);
      child = launch(port);
      await untilReady(port, child);
    },
    stop: async () => {
      admin.disconnect();
      await stopChild(child);
    },
  };
}
