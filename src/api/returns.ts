import { z } from 'zod';
import type { Endpoint, EndpointName, Row, RowOf } from './endpoints.js';
import { RESOURCES, type ResourceName, type ResourceOf, effectsSchema, listEnvelope } from './resources.js';

// What each endpoint answers, from its row (returns, resource, write): once as the schema a 2xx
// body is checked against, once as the type the client and the tools read it as. Both follow the
// same three rules, side by side here: a file is bytes; a write answers a record or a list with
// the API's effects (how much of the resource it carries varies); a read answers its resource.

/** A write's answer, as an object or as a page. */
const writeObject = z.looseObject({ effects: effectsSchema });
const writeList = listEnvelope(z.looseObject({})).extend({ effects: effectsSchema });

const schemas = new Map<string, z.ZodType>();

/** What a 2xx JSON body of this endpoint must be (not for a binary one). Readers stay tolerant: unknown fields and enum values pass. */
export function returnSchema(e: Endpoint): z.ZodType {
  let s = schemas.get(e.name);
  if (s) return s;
  const item = RESOURCES[e.resource];
  if (e.write) s = e.returns === 'list' ? writeList : writeObject;
  else s = e.returns === 'list' ? listEnvelope(item) : item;
  schemas.set(e.name, s);
  return s;
}

/** A page of records of kind K, as listEnvelope reads it. */
export type PageOf<K extends ResourceName> = z.output<ReturnType<typeof listEnvelope<z.ZodType<ResourceOf<K>>>>>;
/** A write's answer: whatever of the record it carries, and its effects. */
export type WriteAnswer = z.output<typeof writeObject>;
export type WriteListAnswer = z.output<typeof writeList>;

type IsWrite<R> = R extends { readonly write: infer W } ? W : R extends { readonly method: 'GET' } ? false : true;
type ReturnOfRow<R extends Row> = R extends { readonly returns: 'binary' }
  ? Buffer
  : IsWrite<R> extends true
    ? R extends { readonly returns: 'list' }
      ? WriteListAnswer
      : WriteAnswer
    : R extends { readonly returns: 'list' }
      ? PageOf<R['resource']>
      : ResourceOf<R['resource']>;

/** What endpoint N answers, as its return schema leaves it: get_lead a lead, list_leads a page of leads, download_attachment bytes. */
export type ReturnOf<N extends EndpointName> = ReturnOfRow<RowOf<N>>;
/** An item of the page endpoint N answers: a lead of list_leads. */
export type ItemOf<N extends EndpointName> = ReturnOf<N> extends { readonly data: readonly (infer T)[] } ? T : never;
