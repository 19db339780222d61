import type { Handlers } from '../context.js';

export const tasksHandlers: Handlers = {};
