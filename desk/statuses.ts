/** The statuses set_status takes (the API's lead statuses and dnc), for the board's status menu. */
export const STATUSES = ['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged', 'dnc'] as const;
