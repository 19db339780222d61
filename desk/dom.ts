/**
 * The only way the desk builds its page: elements with attributes and children, where every
 * string becomes a text node. Nothing here parses HTML, so text written by a lead or a sender
 * (a body holding <script> or <img onerror=…>) shows as the characters it is.
 */
export type Child = Node | string | null | undefined | false;

export interface Attrs {
  [name: string]: string | number | boolean | undefined | ((e: Event) => void);
}

/** Attribute names that would make a string live; the desk never sets them from data. */
const LIVE = /^(on|href$|src$|srcdoc$|formaction$|action$|style$)/i;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') {
      node.addEventListener(name, value);
      continue;
    }
    if (LIVE.test(name)) throw new Error(`the desk never sets ${name} from data`);
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(node: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** Replace everything in `node`. */
export function replace(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}
