import type { EndpointName } from '../../src/api/endpoints.js';
import type { ApiAnswer, ApiCaller, ApiRequest } from '../../src/mcp/declare/tool-context.js';

/**
 * An API a test writes: each call by a row's name, answered as the test says. The server reads
 * what it answers as the rows type it, and nothing checks a stand-in's answers: the test keeps
 * them to the rows' shapes (the real chain checks every answer: src/mcp/pipeline/api-chain.ts).
 */
export function standInApi(answer: (name: EndpointName, req: ApiRequest) => Promise<ApiAnswer>): ApiCaller {
  return { call: answer as unknown as ApiCaller['call'], send: answer };
}
