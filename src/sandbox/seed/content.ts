import type { Rng } from '../rng.js';
import type { Store } from '../store/store.js';
import type { AssetRec, SequenceRec, SequenceStepRec, TemplateRec } from '../store/types.js';
import { daysBefore } from './time.js';

type TemplateDef = Pick<TemplateRec, 'name' | 'subject' | 'body' | 'is_html' | 'visibility'> & {
  folder: string | null;
  by: string;
  ai?: TemplateRec['ai_variables'];
  global?: boolean;
};

const FOLDERS: Record<string, string[]> = {
  acme: ['Positive replies', 'Objections', 'Scheduling', 'Archive'],
  globex: ['Globex basics'],
};

/**
 * Acme's templates exercise every render rule: known tokens from the lead, the key owner
 * and the workspace; unknown tokens; the retired cal_link, one_pager and quarter; AI
 * variables; HTML; private templates of two different people.
 */
const ACME_TEMPLATES: TemplateDef[] = [
  {
    name: 'Interested: book a call',
    folder: 'Positive replies',
    by: 'usr_ada',
    visibility: 'workspace',
    is_html: false,
    subject: 'Re: {{company_name}} and {{sender_company}}',
    body: 'Hi {{first_name}},\n\nGlad this is relevant for {{company_name}}. Pick a time that suits you: {{cal_link}}\n\nBest,\n{{sender_first_name}}',
  },
  {
    name: 'Send the one-pager',
    folder: 'Positive replies',
    by: 'usr_ada',
    visibility: 'workspace',
    is_html: false,
    subject: 'The one-pager you asked for',
    body: 'Hi {{first_name}},\n\nHere is our one-pager: {{one_pager}}\n\nWe are onboarding teams like {{company_name}} this {{quarter}}.\n\n{{sender_name}}\n{{sender_email}}',
  },
  {
    name: 'Bad timing: check back',
    folder: 'Objections',
    by: 'usr_ben',
    visibility: 'workspace',
    is_html: false,
    subject: null,
    body: 'Understood, {{first_name}}. I will check back next quarter; until then, here is what changed in {{quarter}}.\n\n{{sender_first_name}}',
  },
  {
    name: 'Already using a competitor',
    folder: 'Objections',
    by: 'usr_mia',
    visibility: 'workspace',
    is_html: false,
    subject: 'Re: {{competitor_name}}',
    body: 'Hi {{first_name}},\n\nMany teams switched from {{competitor_name}} once they saw {{favorite_feature}}.\n\n{{sender_first_name}}',
  },
  {
    name: 'AI opener with research',
    folder: 'Positive replies',
    by: 'usr_ada',
    visibility: 'workspace',
    is_html: false,
    subject: 'An idea for {{company_name}}',
    body: '{{ai_opener}}\n\nHi {{first_name}}, as {{title}} you probably see {{pain_point}} every week.\n\n{{sender_first_name}}',
    ai: [
      { name: 'ai_opener', read_website: true, instructions: 'One sentence about something specific on the lead website. Never mention AI.' },
      { name: 'pain_point', read_website: false, instructions: 'A pain point typical for the lead title, five words at most.' },
    ],
  },
  {
    name: 'HTML meeting confirmation',
    folder: 'Scheduling',
    by: 'usr_ada',
    visibility: 'workspace',
    is_html: true,
    subject: 'Confirmed: {{company_name}} x {{sender_company}}',
    body: '<p>Hi {{first_name}},</p><p>You are booked. Reschedule any time at <a href="{{cal_link}}">this link</a>.</p><p>{{sender_name}}</p>',
  },
  {
    name: 'Reschedule request',
    folder: 'Scheduling',
    by: 'usr_dee',
    visibility: 'workspace',
    is_html: false,
    subject: 'New time, {{first_name}}?',
    body: 'Hi {{ first_name }},\n\nNo problem, choose another slot here: {{cal_link}}\n\n{{sender_first_name}}',
  },
  {
    name: 'Generic follow-up',
    folder: null,
    by: 'usr_ada',
    visibility: 'workspace',
    is_html: false,
    subject: 'Following up',
    body: 'Hi {{first_name}} {{last_name}},\n\nJust following up on my note to {{email}}.\n\n{{sender_first_name}}',
  },
  {
    name: "Ben's private opener",
    folder: null,
    by: 'usr_ben',
    visibility: 'private',
    is_html: false,
    subject: 'Quick one',
    body: 'Hey {{first_name}}, Ben here from {{sender_company}}.',
  },
  {
    name: "Ada's private draft",
    folder: 'Positive replies',
    by: 'usr_ada',
    visibility: 'private',
    is_html: false,
    subject: 'Draft',
    body: 'Hi {{first_name}}, draft by Ada.',
  },
];

const GLOBEX_TEMPLATES: TemplateDef[] = [
  {
    name: 'Shared: polite intro',
    folder: null,
    by: 'usr_gus',
    visibility: 'global',
    is_html: false,
    global: true,
    subject: 'Hello from {{sender_company}}',
    body: 'Hi {{first_name}},\n\nThanks for getting back to us. Is {{company_name}} the right team to talk to?\n\n{{sender_name}}',
  },
  {
    name: 'Globex internal follow-up',
    folder: 'Globex basics',
    by: 'usr_gus',
    visibility: 'workspace',
    is_html: false,
    subject: 'Globex follow-up',
    body: 'Hi {{first_name}}, following up from Globex.',
  },
];

type AssetDef = Pick<AssetRec, 'kind' | 'title' | 'url' | 'body' | 'visibility'> & { by: string };

const ACME_ASSETS: AssetDef[] = [
  { kind: 'doc', title: 'Acme one-pager (PDF)', url: 'https://assets.acme.example/one-pager.pdf', body: null, visibility: 'workspace', by: 'usr_ada' },
  { kind: 'video', title: 'Two-minute product tour', url: 'https://video.acme.example/tour', body: null, visibility: 'workspace', by: 'usr_ada' },
  { kind: 'link', title: 'Customer stories', url: 'https://acme.example/customers', body: null, visibility: 'workspace', by: 'usr_mia' },
  { kind: 'text', title: 'Pricing snippet', url: null, body: 'Plans start at 49 per seat per month, billed yearly.', visibility: 'workspace', by: 'usr_ben' },
  { kind: 'doc', title: 'Security overview', url: 'https://assets.acme.example/security.pdf', body: null, visibility: 'workspace', by: 'usr_dee' },
  { kind: 'text', title: "Ben's personal sign-off", url: null, body: 'Talk soon, Ben (ping me on my cell any time)', visibility: 'private', by: 'usr_ben' },
  { kind: 'link', title: "Ada's private calendar notes", url: 'https://notes.acme.example/ada', body: null, visibility: 'private', by: 'usr_ada' },
];

const GLOBEX_ASSETS: AssetDef[] = [
  { kind: 'doc', title: 'Globex brochure', url: 'https://assets.globex.example/brochure.pdf', body: null, visibility: 'workspace', by: 'usr_gus' },
];

type StepDef = Omit<SequenceStepRec, 'id' | 'order_index' | 'template_id'> & { template?: string };
type SequenceDef = Pick<SequenceRec, 'name' | 'active' | 'visibility' | 'send_days_mask' | 'deleted'> & { by: string; steps: StepDef[] };

const step = (type: string, delay_value: number, delay_unit: 'days' | 'hours', rest: Partial<StepDef> = {}): StepDef => ({
  type,
  title: null,
  delay_value,
  delay_unit,
  wait_for_previous: true,
  email_body: null,
  linkedin_text: null,
  ...rest,
});

/** Sequences: every step type and delay unit, each visibility, weekday masks, one inactive, one deleted. */
const ACME_SEQUENCES: SequenceDef[] = [
  {
    name: 'Interested: get the meeting',
    active: true,
    visibility: 'workspace',
    send_days_mask: 62,
    deleted: false,
    by: 'usr_ada',
    steps: [
      step('email', 0, 'hours', { title: 'Send the booking link', template: 'Interested: book a call' }),
      step('call', 1, 'days', { title: 'Call if no booking' }),
      step('linkedin', 2, 'days', { title: 'Connect on LinkedIn', linkedin_text: 'Hi, following up on our emails. Happy to connect.' }),
      step('email', 3, 'days', { title: 'Send the one-pager', template: 'Send the one-pager', wait_for_previous: false }),
    ],
  },
  {
    name: 'Bad timing nurture',
    active: true,
    visibility: 'global',
    send_days_mask: 127,
    deleted: false,
    by: 'usr_ben',
    steps: [
      step('email', 30, 'days', { title: 'Check back', template: 'Bad timing: check back' }),
      step('custom', 45, 'days', { title: 'Review account in CRM' }),
      step('email', 60, 'days', { title: 'Last touch', email_body: 'Hi again, is now a better time to talk?' }),
    ],
  },
  {
    name: "Ben's hot-lead cadence",
    active: true,
    visibility: 'private',
    send_days_mask: 42,
    deleted: false,
    by: 'usr_ben',
    steps: [
      step('call', 2, 'hours', { title: 'Call within two hours' }),
      step('email', 1, 'days', { title: 'Recap email', email_body: 'Thanks for the chat today.' }),
    ],
  },
  {
    name: 'Old webinar cadence',
    active: false,
    visibility: 'workspace',
    send_days_mask: 65,
    deleted: false,
    by: 'usr_mia',
    steps: [step('email', 1, 'days', { title: 'Webinar recording', email_body: 'Here is the recording you asked for.' })],
  },
  {
    name: 'Deleted experiment',
    active: true,
    visibility: 'workspace',
    send_days_mask: 127,
    deleted: true,
    by: 'usr_ada',
    steps: [step('email', 1, 'days', { title: 'Never sent', email_body: 'This sequence was deleted.' })],
  },
];

const GLOBEX_SEQUENCES: SequenceDef[] = [
  {
    name: 'Globex launch follow-up',
    active: true,
    visibility: 'workspace',
    send_days_mask: 62,
    deleted: false,
    by: 'usr_gus',
    steps: [step('email', 1, 'days', { title: 'Follow up', email_body: 'Following up on the Globex launch.' })],
  },
];

/** Seeds templates, template folders, assets, sequences. */
export function seedContent(store: Store, rng: Rng, opts: { leads: number }): void {
  void opts;
  const anchor = store.anchor;
  for (const [ws, names] of Object.entries(FOLDERS)) {
    names.forEach((name, i) => {
      store.templateFolders.add({ id: `tfd_${rng.token(10)}`, workspace: ws, name, order_index: i, created_at: daysBefore(anchor, 300 - i * 10) });
    });
  }
  const templateIds = new Map<string, string>();
  for (const [ws, defs] of [
    ['acme', ACME_TEMPLATES],
    ['globex', GLOBEX_TEMPLATES],
  ] as const) {
    const folders = store.templateFolders.inGroup(ws);
    defs.forEach((d, i) => {
      const id = `tpl_${rng.token(10)}`;
      templateIds.set(d.name, id);
      store.templates.add({
        id,
        workspace: d.global ? null : ws,
        owner_workspace: ws,
        scope: d.global ? 'global' : 'workspace',
        name: d.name,
        subject: d.subject,
        body: d.body,
        is_html: d.is_html,
        visibility: d.visibility,
        folder_id: d.folder ? (folders.find((f) => f.name === d.folder)?.id ?? null) : null,
        // Gaps of two leave room for the other workspace's shared templates to interleave.
        order_index: i * 2 + (ws === 'globex' ? 1 : 0),
        ai_variables: d.ai ?? [],
        created_by_id: d.by,
        created_at: daysBefore(anchor, 200 - i * 7 + rng.int(0, 3)),
      });
    });
  }
  for (const [ws, defs] of [
    ['acme', ACME_ASSETS],
    ['globex', GLOBEX_ASSETS],
  ] as const) {
    defs.forEach((d, i) => {
      const { by, ...rest } = d;
      store.assets.add({ id: `ast_${rng.token(10)}`, workspace: ws, ...rest, order_index: i, created_by_id: by, created_at: daysBefore(anchor, 150 - i * 9) });
    });
  }
  for (const [ws, defs] of [
    ['acme', ACME_SEQUENCES],
    ['globex', GLOBEX_SEQUENCES],
  ] as const) {
    defs.forEach((d, i) => {
      const { by, steps, ...rest } = d;
      store.sequences.add({
        id: `seq_${rng.token(10)}`,
        workspace: ws,
        ...rest,
        created_by_id: by,
        created_at: daysBefore(anchor, 120 - i * 11),
        steps: steps.map(({ template, ...s }, n) => ({
          id: `stp_${rng.token(10)}`,
          order_index: n,
          ...s,
          template_id: template ? (templateIds.get(template) ?? null) : null,
        })),
      });
    });
  }
}
