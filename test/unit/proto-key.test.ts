import { describe, expect, it } from 'vitest';
import { vetLine } from '../../src/mcp/transport/jsonrpc-guard.js';

const call = (args: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_lead","arguments":${args}}}`;
/** The reply the guard gives instead of passing the message on (null: dropped unanswered), or undefined when it passes it on. */
const replyTo = (line: string) => {
  const v = vetLine(line);
  return 'reply' in v ? (v.reply as unknown as Record<string, any> | null) : undefined;
};

describe('A __proto__ key of its own (as JSON.parse makes it) is refused at any depth, never dropped in silence', () => {
  for (const [where, args, path] of [
    ['at the top of the arguments', '{"lead_id":"lead_abc","__proto__":{"workspace":"globex"}}', '__proto__'],
    ['inside an argument', '{"lead_id":"lead_abc","fields":{"__proto__":{"polluted":true}}}', 'fields.__proto__'],
    ['inside an array item', '{"lead_ids":[{"x":1},{"deep":{"__proto__":[]}}]}', 'lead_ids.1.deep.__proto__'],
  ] as const) {
    it(`a tool call with __proto__ ${where}: a tool error invalid_request naming it, the id kept`, () => {
      const r = replyTo(call(args));
      expect(r).toBeTruthy();
      expect(r!.id).toBe(7);
      expect(r!.result.isError).toBe(true);
      const text = r!.result.content[0].text as string;
      const body = JSON.parse(text.split('\n')[0]!) as { error: { code: string; param: string; message: string } };
      expect(body.error).toMatchObject({ code: 'invalid_request', param: '__proto__' });
      expect(body.error.message).toContain(`Unknown argument '${path}'`);
    });
  }

  it('another request carrying one (a prompt argument, a resource read) is -32602 naming where', () => {
    const r = replyTo('{"jsonrpc":"2.0","id":"a","method":"prompts/get","params":{"name":"triage_inbox","arguments":{"__proto__":{"x":"y"}}}}');
    expect(r!.error).toMatchObject({ code: -32602 });
    expect(r!.error.message).toContain('arguments.__proto__');
    // A notification is never answered: it is dropped.
    expect(replyTo('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"__proto__":{}}}')).toBeNull();
  });

  it('a key that merely looks like it ("__proto", "proto__") passes on', () => {
    expect(replyTo(call('{"lead_id":"lead_abc","__proto":1,"x":{"proto__":2}}'))).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
