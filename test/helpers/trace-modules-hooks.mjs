// Module hooks for trace-modules.mjs: report each ES module loaded to the main thread.
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, next) {
  port.postMessage(url);
  return next(url, context);
}
