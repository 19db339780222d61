import type { Handlers } from '../context.js';

export const meetingsHandlers: Handlers = {};
