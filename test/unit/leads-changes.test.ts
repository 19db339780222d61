import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyInboxClient } from '../../src/client/index.js';
import { createLogger } from '../../src/log.js';
import { InboxWatch } from '../../src/mcp/live/inbox-watch.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../client/helpers.js';
import { inProcessServer } from '../helpers/in-process.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { eventually } from '../helpers/turns.js';

// Item 13 of the second agent trial: after a notification of new replies, the agent reads only
// what changed since its last read (the leads resource's "changes" URI, then each read's "next"),
// never the whole leads resource again, and those reads cost the watch no poll.

type Started = Awaited<ReturnType<typeof inProcessServer>>;
interface View {
  since?: string;
  changed?: number;
  more?: boolean;
  next?: string;
  changes?: string;
  leads: { id: string }[];
}

const INTERVAL = 30_000;
let sb: Sandbox;
let s: Started;
let watch: InboxWatch;
const clock = new ManualClock();
const told: { uri: string; _meta?: { changes?: string; changed_leads?: string[] } }[] = [];

beforeAll(async () => {
  sb = await sandbox({ leads: 60, bucketLimits: { read: 10_000 } });
  const api = new ReplyInboxClient({ apiKey: sb.keys.admin, baseUrl: sb.baseUrl, logLevel: 'silent' });
  watch = new InboxWatch({ api, intervalMs: INTERVAL, log: createLogger('t', 'silent'), clock });
  s = await inProcessServer(sb, { api, inboxWatch: watch });
  s.client.setNotificationHandler('notifications/resources/updated', (n) => void told.push(n.params as never));
  await s.client.subscribeResource({ uri: 'inbox://acme/leads' });
});
afterAll(async () => {
  watch?.close();
  await s?.close();
  await sb?.close();
});

const read = async (uri: string): Promise<View> => JSON.parse(((await s.client.readResource({ uri })).contents[0] as { text: string }).text);
/** Replies a whole second apart (the API's times have seconds), after everything seeded. */
let second = 0;
const replyOn = (lead: string) => sb.control.simulateInboundReply(lead, new Date(Date.parse('2030-01-01T00:00:00Z') + ++second * 1_000));
const acme = () => sb.store.leads.inGroup('acme').map((l) => l.id);
/** Move the watch's clock one interval and wait for the poll's notification. */
async function pollAndHear(): Promise<(typeof told)[number]> {
  const before = told.length;
  clock.advance(INTERVAL);
  await eventually(
    'the notification of the poll',
    () => told.length > before,
    () => watch.polls,
  );
  return told.at(-1)!;
}

describe('a leads subscription reads only what changed since the last read', () => {
  it("the changes URI, then each read's next: exactly the leads that replied, once each, no poll spent", async () => {
    const first = await read('inbox://acme/leads');
    expect(first.changes).toMatch(/^inbox:\/\/acme\/leads\?since=/);
    const [a, b, c] = acme().slice(-3);
    replyOn(a!);
    replyOn(b!);
    const note = await pollAndHear();
    expect(note.uri).toBe('inbox://acme/leads');
    expect(new Set(note._meta?.changed_leads)).toEqual(new Set([a, b]));
    const polls = watch.polls;

    const changed = await read(first.changes!);
    expect(changed.leads.map((l) => l.id)).toEqual([a, b]);
    expect(changed).toMatchObject({ changed: 2, more: false });
    // The notification's own URI reads the same.
    expect((await read(note._meta!.changes!)).leads.map((l) => l.id)).toEqual([a, b]);

    const nothing = await read(changed.next!);
    expect(nothing).toMatchObject({ changed: 0, more: false, leads: [], next: changed.next });

    replyOn(c!);
    await pollAndHear();
    const third = await read(nothing.next!);
    expect(third.leads.map((l) => l.id)).toEqual([c]);
    // Reading the changes is the agent's own read: the watch polled only on its timer.
    expect(watch.polls).toBe(polls + 1);
  });

  it('more changes than one read shows: more is true and next reads the rest, nothing twice', async () => {
    const start = (await read('inbox://acme/leads')).changes!;
    const replied = acme().slice(0, 27);
    for (const id of replied) replyOn(id);
    const seen: string[] = [];
    let uri = start;
    for (let i = 0; i < 5; i++) {
      const v = await read(uri);
      if (i === 0) expect(v).toMatchObject({ changed: 20, more: true });
      seen.push(...v.leads.map((l) => l.id));
      uri = v.next!;
      if (!v.more) break;
      expect(v.leads.length).toBeGreaterThan(0);
    }
    expect(seen).toHaveLength(27);
    expect(new Set(seen)).toEqual(new Set(replied));
  });

  it('a since that is a day reads from its start in UTC, as tools take one, and the answer shows the instant', async () => {
    replyOn(acme()[3]!);
    const byDay = await read('inbox://acme/leads?since=2030-01-01');
    const byInstant = await read('inbox://acme/leads?since=2030-01-01T00:00:00Z');
    expect(byDay.leads.length).toBeGreaterThan(0);
    const same = (v: View) => ({ ...v, leads: v.leads.map((l) => l.id) });
    expect(same(byDay)).toEqual(same(byInstant));
    expect((byDay as unknown as { since: string }).since).toBe('2030-01-01T00:00:00Z');
  });

  it('a since that is not a date-time is refused naming what it takes', async () => {
    await expect(s.client.readResource({ uri: 'inbox://acme/leads?since=yesterday' })).rejects.toThrow(/since must be a date-time/);
    // A resource is read again, not called.
    await expect(s.client.readResource({ uri: 'inbox://acme/leads?since=yesterday' })).rejects.toThrow(
      "Fix the argument 'since' as the message says and read the leads changed-since resource again.",
    );
  });
});
