import type { Handlers } from '../context.js';

export const conversationsHandlers: Handlers = {};
