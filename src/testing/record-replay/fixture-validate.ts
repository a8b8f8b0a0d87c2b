import { FixtureFormatError } from './errors';
import {
  FIXTURE_VERSION,
  type Fixture,
  type FixtureExchange,
  type FixtureFrame,
  type FixtureRequest,
  type FixtureResponse,
} from './fixture-types';

type Fail = (path: string, problem: string) => never;

const BODY_FIELDS = ['body', 'bodyText', 'bodyFrames', 'bodyBase64'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Validates a parsed fixture and returns a private copy of it. Anything off — another
 * `golemFixture` version, a missing `exchanges` list, a status outside 200–599, two body fields on
 * one response, a header that is not a string — throws `FixtureFormatError` naming
 * `source` and the field.
 */
export function parseFixture(value: unknown, source: string): Fixture {
  const fail: Fail = (path, problem) => {
    throw new FixtureFormatError(source, path, problem);
  };
  const root = record(value, '', fail, 'must be a JSON object');
  if (root.golemFixture !== FIXTURE_VERSION)
    fail(
      'golemFixture',
      `must be ${FIXTURE_VERSION} (this golem reads format version ${FIXTURE_VERSION}), got ${short(root.golemFixture)}`,
    );
  if (typeof root.name !== 'string') fail('name', 'must be a string');
  if (!Array.isArray(root.exchanges)) fail('exchanges', 'must be an array');
  const exchanges = (root.exchanges as unknown[]).map((exchange, i) =>
    parseExchange(exchange, `exchanges[${i}]`, fail),
  );
  return { golemFixture: FIXTURE_VERSION, name: root.name, exchanges };
}

function parseExchange(value: unknown, path: string, fail: Fail): FixtureExchange {
  const exchange = record(value, path, fail, 'must be an object with request and response');
  return {
    request: parseRequest(exchange.request, `${path}.request`, fail),
    response: parseResponse(exchange.response, `${path}.response`, fail),
  };
}

function parseRequest(value: unknown, path: string, fail: Fail): FixtureRequest {
  const request = record(value, path, fail, 'must be an object');
  if (typeof request.method !== 'string' || request.method === '')
    fail(`${path}.method`, 'must be a non-empty string');
  if (typeof request.url !== 'string' || !isUrl(request.url))
    fail(`${path}.url`, 'must be an absolute URL');
  const out: FixtureRequest = { method: request.method, url: request.url };
  if (request.headers !== undefined)
    out.headers = headers(request.headers, `${path}.headers`, fail);
  if ('body' in request && 'bodyText' in request)
    fail(path, 'has both body and bodyText; keep one');
  if ('body' in request) out.body = structuredClone(request.body);
  if (request.bodyText !== undefined) {
    if (typeof request.bodyText !== 'string') fail(`${path}.bodyText`, 'must be a string');
    out.bodyText = request.bodyText;
  }
  return out;
}

function parseResponse(value: unknown, path: string, fail: Fail): FixtureResponse {
  const response = record(value, path, fail, 'must be an object');
  const status = response.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    fail(`${path}.status`, `must be an integer from 200 to 599, got ${short(status)}`);
  const out: FixtureResponse = { status: status };
  if (response.headers !== undefined)
    out.headers = headers(response.headers, `${path}.headers`, fail);
  const present = BODY_FIELDS.filter((field) => field in response);
  if (present.length > 1) fail(path, `has ${present.join(' and ')}; keep one body field`);
  if ('body' in response) out.body = structuredClone(response.body);
  if (response.bodyText !== undefined)
    out.bodyText = strings(response.bodyText, `${path}.bodyText`, fail);
  if (response.bodyBase64 !== undefined) {
    out.bodyBase64 = strings(response.bodyBase64, `${path}.bodyBase64`, fail);
    out.bodyBase64.forEach((chunk, i) => {
      if (chunk.length % 4 !== 0 || !BASE64.test(chunk))
        fail(`${path}.bodyBase64[${i}]`, 'is not base64');
    });
  }
  if (response.bodyFrames !== undefined) {
    if (!Array.isArray(response.bodyFrames)) fail(`${path}.bodyFrames`, 'must be an array');
    out.bodyFrames = (response.bodyFrames as unknown[]).map((frame, i) =>
      parseFrame(frame, `${path}.bodyFrames[${i}]`, fail),
    );
  }
  if (response.interrupted !== undefined) {
    if (typeof response.interrupted !== 'string') fail(`${path}.interrupted`, 'must be a string');
    out.interrupted = response.interrupted;
  }
  return out;
}

function parseFrame(value: unknown, path: string, fail: Fail): FixtureFrame {
  const frame = record(value, path, fail, 'must be an object with headers and a payload');
  const out: FixtureFrame = { headers: headers(frame.headers, `${path}.headers`, fail) };
  if ('payload' in frame && 'payloadText' in frame)
    fail(path, 'has both payload and payloadText; keep one');
  if ('payload' in frame) out.payload = structuredClone(frame.payload);
  if (frame.payloadText !== undefined) {
    if (typeof frame.payloadText !== 'string') fail(`${path}.payloadText`, 'must be a string');
    out.payloadText = frame.payloadText;
  }
  return out;
}

function record(
  value: unknown,
  path: string,
  fail: Fail,
  problem: string,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, problem);
  return value as Record<string, unknown>;
}

function headers(value: unknown, path: string, fail: Fail): Record<string, string> {
  const bag = record(value, path, fail, 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(bag)) {
    if (typeof text !== 'string') fail(`${path}.${name}`, 'must be a string');
    out[name] = text;
  }
  return out;
}

function strings(value: unknown, path: string, fail: Fail): string[] {
  if (!Array.isArray(value)) fail(path, 'must be an array of strings');
  const list = value as unknown[];
  list.forEach((item, i) => {
    if (typeof item !== 'string') fail(`${path}[${i}]`, 'must be a string');
  });
  return [...(list as string[])];
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function short(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
