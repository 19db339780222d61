import type { Handlers } from '../context.js';

export const schedulingHandlers: Handlers = {};
