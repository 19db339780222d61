/** The statuses set_status takes (the API's lead statuses and dnc), for the status control. */
export const STATUSES = ['interested', 'not_interested', 'automated', 'unsubscribed', 'untagged', 'dnc'] as const;
