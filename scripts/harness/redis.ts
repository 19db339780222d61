import { type ChildProcess, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnTracked, standsInFor, startedInTest } from './processes.js';

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

function launch(port: number, extra: string[] = []): ChildProcess {
  // No persistence: a restart must come back empty, as after a FLUSHALL.
  return spawnTracked(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
      const inTest = startedInTest(child);
      await stopChild(child);
      child = launch(port);
      standsInFor(child, inTest);
      await untilReady(port, child);
    },
    stop: async () => {
      admin.disconnect();
      await stopChild(child);
    },
  };
}

/**
 * `redis-cli --cluster create` returns once the slots are assigned, while the nodes may still be
 * meeting: a node that does not yet know the others answers CLUSTERDOWN or moves a slot nowhere,
 * and a message published on one node does not reach a subscriber on another. So wait until every
 * node says cluster_state:ok and knows all the nodes, and fail loudly if that never comes.
 */
async function untilConverged(ports: number[]): Promise<void> {
  const nodes = ports.map((port) => new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 }));
  for (const n of nodes) n.on('error', () => undefined);
  const converged = async (n: Redis) => {
    const info = String(await n.cluster('INFO'));
    return /cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${ports.length}\\b`).test(info);
  };
  try {
    const deadline = Date.now() + 30_000;
    while (!(await Promise.all(nodes.map(converged))).every(Boolean)) {
      if (Date.now() > deadline) throw new Error(`the Redis Cluster on ports ${ports.join(', ')} did not converge within 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    for (const n of nodes) n.disconnect();
  }
}

/** A three-node Redis Cluster of the test's own (no replicas), its nodes on free loopback ports. */
export interface TestRedisCluster {
  /** The seed nodes as --redis takes them: redis://127.0.0.1:P1,redis://127.0.0.1:P2,… */
  url: string;
  ports: number[];
  /** The node that holds a name (by CLUSTER KEYSLOT and CLUSTER SLOTS). */
  nodeOf(name: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<TestRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  // The bus port would default to port + 10000, which may be taken or past 65535: pick free ones too.
  const busPorts = [await freePort(), await freePort(), await freePort()];
  const children = ports.map((p, i) =>
    launch(p, ['--cluster-enabled', 'yes', '--cluster-port', String(busPorts[i]), '--cluster-config-file', join(dir, `nodes-${p}.conf`), '--dir', dir]),
  );
  await Promise.all(ports.map((p, i) => untilReady(p, children[i]!)));
  const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
    encoding: 'utf8',
  });
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  const admin = new Redis({ port: ports[0], host: '127.0.0.1', maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  await untilConverged(ports);
  return {
    url: ports.map((p) => `redis://127.0.0.1:${p}`).join(','),
    ports,
    nodeOf: async (name) => {
      const slot = Number(await admin.cluster('KEYSLOT', name));
      const ranges = await admin.cluster('SLOTS');
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
      return owner![2]![1];
    },
    stop: async () => {
      admin.disconnect();
      await Promise.all(
        children.map(async (c) => {
          if (c.exitCode !== null || c.signalCode !== null) return;
          c.kill('SIGKILL');
          await once(c, 'exit');
        }),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
