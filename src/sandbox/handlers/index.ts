import type { Handlers } from '../context.js';
import { metaHandlers } from './meta.js';

/** Every endpoint's handler, by endpoint name. A test checks none is missing. */
export const HANDLERS: Handlers = {
  ...metaHandlers,
};
