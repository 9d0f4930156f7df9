import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

export interface LocalS3Server {
  /** `http://127.0.0.1:<port>`, for the client's endpoint (path-style addressing). */
  endpoint: string;
  createBucket(name: string): void;
  putObject(bucket: string, key: string, body: string | Buffer): void;
  /** Requests received, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function sendXml(response: ServerResponse, status: number, xml: string) {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
}

function sendError(response: ServerResponse, status: number, code: string, message: string) {
  sendXml(response, status, `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`);
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A small S3-compatible server on loopback speaking the REST calls the AWS SDK sends with path-style
 * addressing: CreateBucket, HeadBucket, ListObjectsV2 (prefix, max-keys, continuation tokens), GetObject, HeadObject
 * and PutObject. Requests without an AWS signature are refused (403 AccessDenied), like S3 does.
 */
export async function startLocalS3Server(options: { maxKeys?: number } = {}): Promise<LocalS3Server> {
  const buckets = new Map<string, Map<string, StoredObject>>();
  const requests: string[] = [];
  const put = (bucket: string, key: string, body: Buffer) => {
    buckets.get(bucket)!.set(key, {
      body,
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      lastModified: new Date(),
    });
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      if (!String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) {
        return sendError(response, 403, 'AccessDenied', 'Access Denied');
      }
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (request.method === 'PUT' && key === '') {
        if (!buckets.has(decodeURIComponent(bucketName)))
          buckets.set(decodeURIComponent(bucketName), new Map());
        return void response.writeHead(200).end();
      }
      const bucket = buckets.get(decodeURIComponent(bucketName));
      if (!bucket) return sendError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (key === '') {
        if (request.method === 'HEAD') return void response.writeHead(200).end();
        if (request.method !== 'GET' || url.searchParams.get('list-type') !== '2') {
          return sendError(response, 501, 'NotImplemented', 'Not implemented');
        }
        const prefix = url.searchParams.get('prefix') ?? '';
        const maxKeys = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), options.maxKeys ?? 1000);
        const after = url.searchParams.get('continuation-token') ?? url.searchParams.get('start-after') ?? '';
        const keys = [...bucket.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
        const page = keys.slice(0, maxKeys);
        const truncated = keys.length > page.length;
        const contents = page
          .map((name) => {
            const object = bucket.get(name)!;
            return (
              `<Contents><Key>${escapeXml(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
              `<ETag>${escapeXml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
            );
          })
          .join('');
        return sendXml(
          response,
          200,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucketName)}</Name>` +
            `<Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>` +
            `<IsTruncated>${truncated}</IsTruncated>${contents}` +
            (truncated ? `<NextContinuationToken>${escapeXml(page.at(-1)!)}</NextContinuationToken>` : '') +
            `</ListBucketResult>`,
        );
      }
      if (request.method === 'PUT') {
        put(decodeURIComponent(bucketName), key, await readBody(request));
        response.writeHead(200, { etag: bucket.get(key)!.etag }).end();
        return;
      }
      const object = bucket.get(key);
      if (!object) return sendError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
      const headers = {
        'content-type': 'application/octet-stream',
        'content-length': String(object.body.length),
        etag: object.etag,
        'last-modified': object.lastModified.toUTCString(),
      };
      if (request.method === 'HEAD') return void response.writeHead(200, headers).end();
      response.writeHead(200, headers).end(object.body);
    })().catch((error: unknown) => sendError(response, 500, 'InternalError', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    createBucket: (name) => void buckets.set(name, new Map()),
    putObject: (bucket, key, body) => put(bucket, key, Buffer.from(body)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
