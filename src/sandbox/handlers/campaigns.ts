import type { Handlers } from '../context.js';

export const campaignsHandlers: Handlers = {};
