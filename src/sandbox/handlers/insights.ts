import type { Handlers } from '../context.js';

export const insightsHandlers: Handlers = {};
