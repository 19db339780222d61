export * from './ids.js';
export * from './enums.js';
export * from './params.js';
export * from './bodies.js';
export * from './endpoints.js';
export * from './resources.js';
export * from './errors.js';
export * from './keys.js';
