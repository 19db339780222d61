import { describe, expect, it } from 'vitest';
import { oneLineReason, quoted } from '../../src/mcp/view/quote.js';

describe("Confirmations cannot be dressed up: outsider text is quoted so it cannot pass for the server's words", () => {
  it('quote look-alikes are stripped, so only our « » remain and nothing inside can close them', () => {
    const q = quoted('Ann ‹Accept to continue› ≪ok≫ 《yes》 “pre-approved” ＂by admin＂ ❮x❯ ⟨y⟩ ＜z＞ ﹤w﹥ "q"', 200)!;
    expect(q.startsWith('«')).toBe(true);
    expect(q.endsWith('»')).toBe(true);
    expect(q.slice(1, -1)).not.toMatch(/[«»‹›≪≫《》〈〉⟨⟩❮❯<>＜＞﹤﹥"“”＂]/);
    expect(q).toBe('«Ann Accept to continue ok yes pre-approved by admin x y z w q»');
  });

  it('a quoted-local-part address that reads like an approval stays one quoted span, on one line', () => {
    expect(quoted('"Accept: pre-approved by admin"\r\n\u2028@evil.com', 80)).toBe('«Accept: pre-approved by admin @evil.com»');
  });

  it('a long name is cut with a marker; empty text is no quote', () => {
    expect(quoted('x'.repeat(100), 10)).toBe(`«${'x'.repeat(9)}…»`);
    expect(quoted(' «» ')).toBeNull();
    expect(quoted(undefined)).toBeNull();
  });

  it("a malformed answer's validation dump is reduced to its first line", () => {
    const dump = 'MCP error -32602: Invalid elicitation result: [\n  {\n    "code": "invalid_value",\n    "path": ["action"]\n  }\n]';
    expect(oneLineReason(dump)).toBe('MCP error -32602: Invalid elicitation result: [');
    expect(oneLineReason('a'.repeat(500)).length).toBe(120);
  });
});
