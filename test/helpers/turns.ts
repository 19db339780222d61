/**
 * The most turns of the event loop a wait in the fast lane may take. What such a test waits for
 * is work in its own process (promise chains, loopback sockets, a sandbox answering over them),
 * which takes a handful of turns: a loaded machine makes each turn later, never more of them.
 * A wait on a real timer would need ever more turns as the machine gets faster, and fails here.
 */
const MAX_TURNS = 100_000;

/** One turn of the event loop: the I/O that is ready and the promise jobs it starts run before it ends. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Turn the event loop until ok(); after MAX_TURNS, fail saying what was seen. No clock is read. */
export async function eventually(what: string, ok: () => boolean, seen: () => unknown = () => ''): Promise<void> {
  for (let n = 0; !ok(); n++) {
    if (n === MAX_TURNS) throw new Error(`${what}: not after ${MAX_TURNS} turns of the event loop; seen: ${JSON.stringify(seen())}`);
    await turn();
  }
}
