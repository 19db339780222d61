// Types for the two undici modules the client loads by path (src/client/http.ts says why).
// undici publishes no types for them; these are the public types of the same objects, which
// test/client/undici-parts.test.ts holds identical to the package's own exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
