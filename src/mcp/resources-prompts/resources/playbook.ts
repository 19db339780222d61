import { ResourceTemplate } from '@modelcontextprotocol/server';
import { htmlToText } from '../../../api/text.js';
import { redactSecrets } from '../../../redact.js';
import { TEMPLATE, URI } from '../../view/links.js';
import { cutToBudget } from '../../view/result-budget.js';
import { workspaceOr } from '../access.js';
import { budgetOf, MARKDOWN, one, type ResourceKit, text } from './kit.js';

/** inbox://{workspace}/playbook: the team's reply playbook (sdr_notes) as markdown. */
export function registerPlaybook(kit: ResourceKit): void {
  const { mcp } = kit;
  mcp.registerResource(
    'playbook',
    new ResourceTemplate(TEMPLATE.playbook, {
      list: kit.forWorkspaces('workspaces:read', (ws) => ({ uri: URI.playbook(ws), name: `playbook-${ws}`, title: `Playbook of ${ws}`, mimeType: MARKDOWN })),
      complete: kit.workspaceOnly,
    }),
    { title: 'Workspace playbook', description: "The team's reply playbook for a workspace (sdr_notes), as written by the team.", mimeType: MARKDOWN },
    kit.guarded('playbook resource', async (uri, vars, extra, { access }) => {
      const ws = workspaceOr(access, one(vars.workspace));
      const r = await access.api.call('get_workspace', { path: { workspace: ws }, query: { include: ['sdr_notes'] }, signal: extra.signal });
      const w = r.data;
      const head = `# Playbook of ${w.name ?? ws} (${ws})\n\n`;
      const body = w.sdr_notes
        ? `The team's reply playbook (sdr_notes), as the team wrote it:\n\n${redactSecrets(htmlToText(w.sdr_notes))}\n`
        : 'This workspace has no playbook (sdr_notes is empty).\n';
      return text(uri, MARKDOWN, cutToBudget(head + body, budgetOf(access), 'playbook'));
    }),
  );
}
