// While the areas move beside their tools (tools/<area>.test.ts), the ones still here use the same in-process bench.
export * from '../../helpers/tool-area.js';
