/**
 * The server fences text written by outsiders (<untrusted-id>…</untrusted-id>) for a model; a
 * person reads it without the fence. What is left is still only ever inserted as text.
 */
const FENCE = /<untrusted-([0-9a-f]{4,})>([\s\S]*?)<\/untrusted-\1>/g;

export function unfence(s: unknown): string {
  if (typeof s !== 'string') return s === null || s === undefined ? '' : String(s);
  return s.replace(FENCE, (_m, _id: string, inner: string) => inner);
}
