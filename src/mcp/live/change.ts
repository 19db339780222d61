/** Leads of a workspace whose newest message moved since the last poll. */
export interface InboxChange {
  workspace: string;
  leads: string[];
  /** A poll found them: their newest message is strictly after this (absent for this server's own writes). */
  since?: string;
}
export type ChangeListener = (c: InboxChange) => void;

/** Timestamps compared as instants, whatever their offset or precision; anything is later than null. */
export const later = (a: string, than: string | null): boolean => than === null || Date.parse(a) > Date.parse(than);
