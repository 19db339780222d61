import type { Handlers } from '../context.js';

export const templatesHandlers: Handlers = {};
