import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { useInProcessServer } from '../helpers/in-process.js';

const server = useInProcessServer();

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('spec (render rules): resolve_ai_variables=true is refused in v1; AI slots are filled by the caller through overrides', () => {
  it("the refusal names the template's AI variables and the overrides that fill them, keeping the values already given", async () => {
    const template = server.sb.store.templates.inGroup('acme').find((t) => t.ai_variables.length >= 2)!;
    const names = template.ai_variables.map((v) => v.name);
    const lead = server.sb.store.leads.inGroup('acme')[0]!;
    const r = (await server.client.callTool({
      name: 'render_template',
      arguments: { template_id: template.id, lead_id: lead.id, resolve_ai_variables: true, overrides: { [names[0]!]: 'Loved your post' } },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    const [envelope, nextStep] = text(r).split('\n') as [string, string];
    const { error } = JSON.parse(envelope) as { error: { code: string; message: string; param: string } };
    expect(error).toMatchObject({ code: 'unprocessable', param: 'resolve_ai_variables' });
    expect(error.message).toContain(`AI variables: ${names.join(', ')}`);
    expect(error.message).toMatch(/overrides/);
    // The next call, ready to send: no resolve_ai_variables, every AI variable named in overrides, the agent's own value kept.
    const again = JSON.parse(nextStep.slice(nextStep.indexOf('{'), nextStep.lastIndexOf('}') + 1)) as Record<string, unknown>;
    expect(again).not.toHaveProperty('resolve_ai_variables');
    expect(Object.keys(again.overrides as object).sort()).toEqual([...names].sort());
    expect((again.overrides as Record<string, string>)[names[0]!]).toBe('Loved your post');
  });

  it('a template without AI variables says so, and the next call is the same render without the flag', async () => {
    const template = server.sb.store.templates.inGroup('acme').find((t) => t.ai_variables.length === 0)!;
    const lead = server.sb.store.leads.inGroup('acme')[0]!;
    const r = (await server.client.callTool({
      name: 'render_template',
      arguments: { template_id: template.id, lead_id: lead.id, resolve_ai_variables: true },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('has no AI variables');
    expect(text(r)).toContain(JSON.stringify({ template_id: template.id, lead_id: lead.id }));
  });
});
