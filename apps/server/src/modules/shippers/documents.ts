import type { EventInput } from '@vigil/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// Keys come from the shipper: read own properties only and define rather than assign, so that a key
// such as `__proto__` is data and never reaches a prototype.
const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);
const put = (object: Json, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * The document with dotted keys expanded into objects (`"host.name": "a"` → `host: { name: "a" }`),
 * as Elasticsearch reads them; a key whose path meets a value that is not an object stays dotted.
 */
function expandDots(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandDots);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const parts = key.split('.');
    let target = out;
    let at = 0;
    while (at < parts.length - 1 && parts[at] !== '') {
      const next = own(target, parts[at]!);
      if (next !== undefined && !isObject(next)) break;
      if (next === undefined) put(target, parts[at]!, {});
      target = own(target, parts[at]!) as Json;
      at += 1;
    }
    const rest = parts.slice(at).join('.');
    const known = own(target, rest);
    const expanded = expandDots(item);
    put(target, rest, isObject(known) && isObject(expanded) ? { ...known, ...expanded } : expanded);
  }
  return out;
}

/** Removes and answers the value at a dotted path when `accept` takes it; emptied objects go too. */
function take<T>(doc: Json, path: string, accept: (value: unknown) => value is T): T | undefined {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const value = own(doc, head);
  if (rest.length === 0) {
    if (!accept(value)) return undefined;
    delete doc[head];
    return value;
  }
  if (!isObject(value)) return undefined;
  const found = take(value, rest.join('.'), accept);
  if (found !== undefined && Object.keys(value).length === 0) delete doc[head];
  return found;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isTime = (value: unknown): value is string | number =>
  isText(value) || (typeof value === 'number' && Number.isFinite(value));

/** The first of `paths` holding a usable value; the others stay in the document. */
function takeFirst<T>(doc: Json, paths: string[], accept: (value: unknown) => value is T): T | undefined {
  for (const path of paths) {
    const value = take(doc, path, accept);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The event of one document a shipper sent to the Elasticsearch listener: ECS names (and the usual
 * plain ones), nested or dotted, fill the event's columns, the index name is the data source when the document names
 * none, and everything else is kept in `fields`. Values of an unexpected type stay in `fields`.
 */
export function documentEvent(source: Json, index: string | undefined): EventInput {
  const doc = expandDots(source) as Json;
  const timestamp = takeFirst(doc, ['@timestamp', 'timestamp'], isTime);
  const message = take(doc, 'message', (value): value is string => typeof value === 'string');
  const host = takeFirst(doc, ['host.name', 'host.hostname', 'host'], isText);
  const srcIp = takeFirst(doc, ['source.ip', 'client.ip'], isText);
  const dstIp = takeFirst(doc, ['destination.ip', 'server.ip'], isText);
  const userName = take(doc, 'user.name', isText);
  const dataSource = takeFirst(doc, ['event.dataset', 'data_stream.dataset'], isText) ?? index;
  return { timestamp, message, host, srcIp, dstIp, userName, dataSource, fields: doc };
}
