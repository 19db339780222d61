import { keyHandleOf } from '../../api/keys.js';
import { hashSecret } from '../auth.js';
import type { Rng } from '../rng.js';
import { memberIdOf, type Store } from '../store/store.js';
import type { UserRec, WorkspaceRec } from '../store/types.js';
import { KEY_DEFS, SANDBOX_KEYS } from './keys.js';
import { daysBefore } from './time.js';

/** People of the key table in docs/sandbox.md, plus two more reps so assignment has choices. */
const USERS: Omit<UserRec, 'created_at'>[] = [
  { id: 'usr_ada', name: 'Ada Admin', email: 'ada@acme.example', avatar_url: null, role: 'admin', timezone: 'Europe/London', active: true, reach: 'all' },
  {
    id: 'usr_ben',
    name: 'Ben Rep',
    email: 'ben@acme.example',
    avatar_url: 'https://avatars.example/ben.png',
    role: 'user',
    timezone: 'America/New_York',
    active: true,
    reach: ['acme'],
  },
  {
    id: 'usr_dee',
    name: 'Dee Former-Admin',
    email: 'dee@acme.example',
    avatar_url: null,
    role: 'user',
    timezone: 'Europe/Berlin',
    active: true,
    reach: ['acme', 'globex'],
  },
  { id: 'usr_cy', name: 'Cy Gone', email: 'cy@acme.example', avatar_url: null, role: 'user', timezone: null, active: false, reach: ['acme'] },
  { id: 'usr_mia', name: 'Mia Closer', email: 'mia@acme.example', avatar_url: null, role: 'user', timezone: 'America/Chicago', active: true, reach: ['acme'] },
  { id: 'usr_raj', name: null, email: 'raj@acme.example', avatar_url: null, role: 'user', timezone: 'Asia/Kolkata', active: true, reach: ['acme'] },
  {
    id: 'usr_gus',
    name: 'Gus Globex',
    email: 'gus@globex.example',
    avatar_url: null,
    role: 'admin',
    timezone: 'America/Los_Angeles',
    active: true,
    reach: ['globex'],
  },
  { id: 'usr_hal', name: 'Hal Helper', email: 'hal@globex.example', avatar_url: null, role: 'user', timezone: 'UTC', active: true, reach: ['globex'] },
];

const WORKSPACES: Omit<WorkspaceRec, 'synced_at' | 'upstream_token'>[] = [
  {
    id: 'acme',
    name: 'Acme Outbound',
    domain: 'acme.example',
    logo_url: 'https://logos.example/acme.png',
    active: true,
    features: { inbox: true, scheduling: true, events: true, reports: true },
    sdr_notes: '<p>Reply within one business hour. Book a discovery call with anyone INTERESTED; offer the one-pager to BAD_TIMING.</p>',
    assignment_method: 'round_robin',
    admins_assignable: true,
  },
  {
    id: 'globex',
    name: 'Globex Demand',
    domain: 'globex.example',
    logo_url: null,
    active: true,
    features: { inbox: true, scheduling: false, events: false, reports: true },
    sdr_notes: null,
    assignment_method: 'one',
    admins_assignable: false,
  },
  {
    id: 'initech',
    name: 'Initech (archived)',
    domain: null,
    logo_url: null,
    active: false,
    features: { inbox: true, scheduling: false, events: false, reports: false },
    sdr_notes: null,
    assignment_method: 'off',
    admins_assignable: false,
  },
];

/** Assignment rows (admins have none). */
const MEMBERSHIPS: { workspace: string; user: string; assignable: boolean }[] = [
  { workspace: 'acme', user: 'usr_ben', assignable: true },
  { workspace: 'acme', user: 'usr_dee', assignable: true },
  { workspace: 'acme', user: 'usr_cy', assignable: false },
  { workspace: 'acme', user: 'usr_mia', assignable: true },
  { workspace: 'acme', user: 'usr_raj', assignable: true },
  { workspace: 'globex', user: 'usr_dee', assignable: true },
  { workspace: 'globex', user: 'usr_hal', assignable: true },
];

export function seedCore(store: Store, rng: Rng): void {
  const anchor = store.anchor;
  USERS.forEach((u, i) => {
    store.users.set(u.id, { ...u, created_at: daysBefore(anchor, 400 - i * 20) });
  });
  for (const w of WORKSPACES) {
    store.workspaces.set(w.id, {
      ...w,
      synced_at: w.active ? daysBefore(anchor, 0.01) : daysBefore(anchor, 90),
      upstream_token: `upt_${rng.token(24)}`,
    });
  }
  for (const m of MEMBERSHIPS) {
    store.memberships.push({
      workspace: m.workspace,
      user_id: m.user,
      member_id: memberIdOf(m.user, m.workspace),
      assignable: m.assignable,
      created_at: daysBefore(anchor, 300),
    });
  }
  for (const k of KEY_DEFS) {
    const secret = SANDBOX_KEYS[k.name];
    store.keysByHash.set(hashSecret(secret), {
      id: k.id,
      name: `${k.name} key`,
      handle: keyHandleOf(secret) ?? '',
      environment: k.name === 'test' ? 'test' : 'live',
      secret_hash: hashSecret(secret),
      owner_id: k.owner,
      all_workspaces: k.all_workspaces,
      workspaces: k.workspaces,
      scopes: k.scopes,
      revoked: k.revoked ?? false,
      expires_at: k.expired ? '2024-01-01T00:00:00Z' : '2099-01-01T00:00:00Z',
      created_at: daysBefore(anchor, 120),
      last_used_at: null,
      description: `Sandbox ${k.name} key`,
    });
  }
}
