import { gunzipSync } from 'node:zlib';
import type { EventInput, S3LogsType } from '@vigil/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at a dotted path of own properties. */
function at(object: Json, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

/** The first of `paths` holding a non-empty string or a number, as text. */
function first(object: Json, paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const value = at(object, path);
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** Which fields of a JSON record fill an event's columns, for each JSON-lines logs type. */
interface Mapping {
  dataSource: string;
  timestamp: readonly string[];
  host: readonly string[];
  srcIp: readonly string[];
  dstIp: readonly string[];
  userName: readonly string[];
  message: readonly string[];
}

const COMMON: Omit<Mapping, 'dataSource'> = {
  timestamp: ['@timestamp', 'timestamp', 'time', 'eventTime'],
  host: ['host.name', 'hostname', 'host'],
  srcIp: ['source.ip', 'srcIp', 'src_ip', 'sourceIp', 'ipAddress', 'ip'],
  dstIp: ['destination.ip', 'dstIp', 'dst_ip', 'destinationIp'],
  userName: ['user.name', 'userName', 'username', 'user'],
  message: ['message', 'msg'],
};

const MAPPINGS: Record<Exclude<S3LogsType, 'CLOUDTRAIL' | 'CLOUDWATCH' | 'DEFAULT'>, Mapping> = {
  JSONL: { dataSource: 's3', ...COMMON },
  // CEF extension keys (ArcSight's JSON rendering): rt, shost/dvchost, src, dst, suser, msg or name.
  CEF_JSON: {
    dataSource: 'cef',
    timestamp: ['rt', 'deviceReceiptTime', 'start', ...COMMON.timestamp],
    host: ['shost', 'dvchost', 'dhost', ...COMMON.host],
    srcIp: ['src', 'sourceAddress', ...COMMON.srcIp],
    dstIp: ['dst', 'destinationAddress', ...COMMON.dstIp],
    userName: ['suser', 'sourceUserName', 'duser', ...COMMON.userName],
    message: ['msg', 'message', 'name'],
  },
  CELEBRUS: {
    dataSource: 'celebrus',
    timestamp: ['eventTimestamp', 'eventTime', ...COMMON.timestamp],
    host: ['hostName', ...COMMON.host],
    srcIp: ['ipAddress', 'clientIp', ...COMMON.srcIp],
    dstIp: COMMON.dstIp,
    userName: ['customerId', 'loginId', 'profileId', ...COMMON.userName],
    message: ['eventType', 'eventName', ...COMMON.message],
  },
  APITURE_DIGITAL_BANKING: {
    dataSource: 'apiture',
    timestamp: ['occurredAt', 'createdAt', ...COMMON.timestamp],
    host: COMMON.host,
    srcIp: ['clientIpAddress', 'ipAddress', ...COMMON.srcIp],
    dstIp: COMMON.dstIp,
    userName: ['userId', 'username', 'customerId', ...COMMON.userName],
    message: ['eventType', 'type', 'description', ...COMMON.message],
  },
  FRAUD_EVENT: {
    dataSource: 'fraud',
    timestamp: ['eventTime', 'detectedAt', ...COMMON.timestamp],
    host: COMMON.host,
    srcIp: ['ipAddress', 'clientIp', ...COMMON.srcIp],
    dstIp: COMMON.dstIp,
    userName: ['accountHolder', 'userId', 'customerId', ...COMMON.userName],
    message: ['reason', 'eventType', 'description', ...COMMON.message],
  },
};

function mapped(record: Json, mapping: Mapping): EventInput {
  return {
    timestamp: first(record, mapping.timestamp),
    host: first(record, mapping.host),
    srcIp: first(record, mapping.srcIp),
    dstIp: first(record, mapping.dstIp),
    userName: first(record, mapping.userName),
    dataSource: mapping.dataSource,
    message: first(record, mapping.message) ?? JSON.stringify(record).slice(0, 4096),
    fields: record,
  };
}

/** One CloudTrail record: the event's time, source address, caller and API call. */
function cloudTrailEvent(record: Json): EventInput {
  return {
    timestamp: first(record, ['eventTime']),
    host: first(record, ['eventSource']),
    srcIp: first(record, ['sourceIPAddress']),
    userName: first(record, ['userIdentity.userName', 'userIdentity.arn', 'userIdentity.principalId']),
    dataSource: 'cloudtrail',
    message: [first(record, ['eventSource']), first(record, ['eventName'])].filter(Boolean).join(' '),
    fields: record,
  };
}

// Elastic Load Balancer access log: type time elb client:port target:port processing times, status
// codes, bytes, "request" "user agent" ... (Application Load Balancer layout; Classic lacks `type`).
const ELB_LINE =
  /^(?:(\S+) )?(\d{4}-\d\d-\d\dT\S+) (\S+) (\S+?)(?::\d+)? (\S+?)(?::\d+)? \S+ \S+ \S+ (\S+) (\S+) (\d+) (\d+) "([^"]*)" "([^"]*)"/;

function elbEvent(line: string): EventInput | null {
  const match = ELB_LINE.exec(line);
  if (!match) return null;
  const [, type, time, elb, client, target, elbStatus, targetStatus, received, sent, request, agent] = match;
  return {
    timestamp: time,
    host: elb,
    srcIp: client,
    dstIp: target === '-' ? undefined : target,
    dataSource: 'elb',
    message: request,
    fields: {
      type: type ?? 'classic',
      elbStatusCode: elbStatus,
      targetStatusCode: targetStatus,
      receivedBytes: Number(received),
      sentBytes: Number(sent),
      request,
      userAgent: agent,
      raw: line,
    },
  };
}

export interface ParsedLog {
  events: EventInput[];
  /** Lines or records that could not be read. */
  rejected: number;
}

const lines = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON lines (or one JSON array or object) mapped with `toEvent`; other lines are rejected. */
function jsonRecords(text: string, toEvent: (record: Json) => EventInput): ParsedLog {
  const whole = parseJson(text);
  if (Array.isArray(whole)) {
    const records = whole.filter(isObject);
    return { events: records.map(toEvent), rejected: whole.length - records.length };
  }
  if (isObject(whole)) return { events: [toEvent(whole)], rejected: 0 };
  const out: ParsedLog = { events: [], rejected: 0 };
  for (const line of lines(text)) {
    const record = parseJson(line);
    if (isObject(record)) out.events.push(toEvent(record));
    else out.rejected++;
  }
  return out;
}

function cloudTrail(text: string): ParsedLog {
  const whole = parseJson(text);
  const records = isObject(whole) && Array.isArray(whole.Records) ? whole.Records : undefined;
  if (!records) return { events: [], rejected: 1 };
  const objects = records.filter(isObject);
  return { events: objects.map(cloudTrailEvent), rejected: records.length - objects.length };
}

/**
 * CloudWatch Logs as Kinesis Firehose writes them to S3: concatenated JSON documents, each with a log
 * group, stream and its logEvents (id, timestamp in ms, message).
 */
function cloudWatch(text: string): ParsedLog {
  const out: ParsedLog = { events: [], rejected: 0 };
  // Firehose writes documents back to back; split between "}{" and read each.
  for (const part of text.replace(/}\s*{/g, '}\n{').split('\n')) {
    if (part.trim() === '') continue;
    const doc = parseJson(part);
    if (!isObject(doc) || !Array.isArray(doc.logEvents)) {
      out.rejected++;
      continue;
    }
    if (doc.messageType === 'CONTROL_MESSAGE') continue;
    for (const item of doc.logEvents) {
      if (!isObject(item)) {
        out.rejected++;
        continue;
      }
      const message = typeof item.message === 'string' ? item.message : '';
      const inner = parseJson(message);
      out.events.push({
        timestamp: typeof item.timestamp === 'number' ? item.timestamp : undefined,
        host: typeof doc.logStream === 'string' ? doc.logStream : undefined,
        dataSource: 'cloudwatch',
        message,
        fields: {
          logGroup: doc.logGroup,
          logStream: doc.logStream,
          owner: doc.owner,
          ...(isObject(inner) && { data: inner }),
        },
      });
    }
  }
  return out;
}

/** Default: CloudTrail when the object is a CloudTrail file, else each line as ELB, JSON or plain text. */
function detect(text: string): ParsedLog {
  const whole = parseJson(text);
  if (isObject(whole) && Array.isArray(whole.Records)) return cloudTrail(text);
  if (isObject(whole) && Array.isArray(whole.logEvents)) return cloudWatch(text);
  const events: EventInput[] = [];
  for (const line of lines(text)) {
    const record = parseJson(line);
    events.push(
      isObject(record)
        ? mapped(record, MAPPINGS.JSONL)
        : (elbEvent(line) ?? { dataSource: 's3', message: line }),
    );
  }
  return { events, rejected: 0 };
}

/** Decompresses gzip objects (CloudTrail, ELB and Firehose write them) by their magic bytes. */
export function objectText(body: Buffer): string {
  const raw = body.length > 2 && body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
  return raw.toString('utf8');
}

/** The events of one S3 object of a log source of `logsType`. */
export function parseLogObject(body: Buffer, logsType: S3LogsType): ParsedLog {
  const text = objectText(body);
  switch (logsType) {
    case 'DEFAULT':
      return detect(text);
    case 'CLOUDTRAIL':
      return cloudTrail(text);
    case 'CLOUDWATCH':
      return cloudWatch(text);
    default: {
      const mapping = MAPPINGS[logsType];
      return jsonRecords(text, (record) => mapped(record, mapping));
    }
  }
}
