import { type Child, el } from './dom.js';
import type { Host } from './host.js';
import { classificationLabel, stateLabel, statusLabel } from './labels.js';
import { linkPieces, unfence } from './text.js';

/** Tell the person what happened, in the one live region screen readers announce. */
export function say(message: string): void {
  const region = document.getElementById('status');
  if (region) region.textContent = message;
}

/** A body as text; its addresses are buttons that ask the host to open them (the host confirms). */
export function bodyText(host: Host, text: string): Child[] {
  return linkPieces(text).map((p) =>
    p.url
      ? el(
          'button',
          {
            type: 'button',
            class: 'inert-link',
            title: `Open ${p.url} (your host asks first)`,
            click: async () => say((await host.open(p.url!)) ? `Opened ${p.url}.` : `Not opened: ${p.url}.`),
          },
          p.text,
        )
      : p.text,
  );
}

/** A status, classification or state as a chip in words; the value picks its colour through a class, never a style. */
export function chip(kind: string, value: unknown, label: (v: unknown) => string): HTMLElement | null {
  const plain = unfence(value);
  if (!plain) return null;
  const tone = /^[a-z_]+$/i.test(plain) ? plain.toLowerCase() : 'other';
  return el('span', { class: `chip ${kind} tone-${tone}`, 'data-value': plain }, label(plain));
}

/** A lead's status, classification, and its state when not active. */
export function leadChips(l: { status?: unknown; classification?: unknown; state?: unknown }): (HTMLElement | null)[] {
  return [
    chip('status', l.status, statusLabel),
    chip('classification', l.classification, classificationLabel),
    l.state && l.state !== 'active' ? chip('state', l.state, stateLabel) : null,
  ];
}
