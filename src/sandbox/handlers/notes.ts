import type { Handlers } from '../context.js';

export const notesHandlers: Handlers = {};
