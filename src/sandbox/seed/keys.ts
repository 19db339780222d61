import { SCOPES, type Scope } from '../../api/enums.js';

/**
 * The fixed keys of docs/sandbox.md, so that tests, docs and demos can name them. They are
 * sandbox credentials, public by design; the sandbox stores only their hashes.
 */
export const SANDBOX_KEYS = {
  admin: 'rik_live_admin001_16cc3b0fad2282fce492b8e39b5bcb53',
  rep: 'rik_live_repben01_97d93c4d7b2821f7cafb7094a716b10a',
  readonly: 'rik_live_readonly_d7ce4dccf5b35e5e7cebe4465cb90de0',
  demoted: 'rik_live_demoted1_417678ba9d41950667ccd5c32f35d7d1',
  globex: 'rik_live_globex01_53cf1c0cc4511c926e5f6790a0772ee1',
  revoked: 'rik_live_revoked1_7b2a5aab8d6338547a5abcd2665bc300',
  expired: 'rik_live_expired1_a27b6fa016005e5dea48d68287f43397',
  deactivated: 'rik_live_deactiv1_d27003bf0f76732ae14a2f163349cc30',
  test: 'rik_test_testkey1_2793c9e44e19712d6b2173ca4bfa862e',
} as const;
export type SandboxKeyName = keyof typeof SANDBOX_KEYS;

const ALL: Scope[] = [...SCOPES];
const ALL_BUT_INSIGHTS = ALL.filter((s) => s !== 'insights:read');
const READS_BUT_INSIGHTS = ALL_BUT_INSIGHTS.filter((s) => s.endsWith(':read'));

export interface KeyDef {
  name: SandboxKeyName;
  id: string;
  owner: string;
  all_workspaces: boolean;
  workspaces: string[];
  scopes: Scope[];
  revoked?: boolean;
  expired?: boolean;
}

export const KEY_DEFS: KeyDef[] = [
  { name: 'admin', id: 'key_admin001', owner: 'usr_ada', all_workspaces: true, workspaces: [], scopes: ALL },
  { name: 'rep', id: 'key_repben01', owner: 'usr_ben', all_workspaces: false, workspaces: ['acme'], scopes: ALL_BUT_INSIGHTS },
  { name: 'readonly', id: 'key_readonly', owner: 'usr_ben', all_workspaces: false, workspaces: ['acme'], scopes: READS_BUT_INSIGHTS },
  { name: 'demoted', id: 'key_demoted1', owner: 'usr_dee', all_workspaces: false, workspaces: ['acme', 'globex'], scopes: ALL },
  { name: 'globex', id: 'key_globex01', owner: 'usr_gus', all_workspaces: false, workspaces: ['globex'], scopes: ALL },
  { name: 'revoked', id: 'key_revoked1', owner: 'usr_ben', all_workspaces: false, workspaces: ['acme'], scopes: ALL_BUT_INSIGHTS, revoked: true },
  { name: 'expired', id: 'key_expired1', owner: 'usr_ben', all_workspaces: false, workspaces: ['acme'], scopes: ALL_BUT_INSIGHTS, expired: true },
  { name: 'deactivated', id: 'key_deactiv1', owner: 'usr_cy', all_workspaces: false, workspaces: ['acme'], scopes: ALL_BUT_INSIGHTS },
  { name: 'test', id: 'key_testkey1', owner: 'usr_ada', all_workspaces: true, workspaces: [], scopes: ALL },
];
