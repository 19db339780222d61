import type { Handlers } from '../context.js';

export const leadsHandlers: Handlers = {};
