import { cancellationError } from '../../core/errors/cancellation';
import { ModelRetry } from '../../core/errors/errors';
import { isRecord } from '../../core/kit/guards';
import { defineTool } from '../../core/tool/define-tool';
import type { Tool } from '../../core/tool/tool';
import { isHtmlType } from './content-type';
import { checkStatic, type StaticCheck } from './destination';
import { fetchPage } from './fetch-page';
import { htmlConverter } from './html';
import { nestingCutIndex } from './nesting-guard';
import { resolveOptions, type WebFetchConfig, type WebFetchOptions } from './options';
import { FetchScope } from './scope';
import { WebFetchError, causeText } from './errors';

/** The tool's name, as the model calls it. */
export const WEB_FETCH_TOOL_NAME = 'web_fetch';

const DESCRIPTION =
  'Fetch a web page or document over HTTP(S) and return it as text: HTML is converted to plain ' +
  'text; plain text, JSON, XML and YAML are returned as they are. Long responses are cut and end ' +
  'with a truncation note. Only public http and https URLs can be fetched.';

const MAX_URL_LENGTH = 8192;

/** The text appended when a body was cut at `bytes` bytes. */
export function truncationMarker(bytes: number): string {
  return `\n\n[webfetch: response truncated at ${bytes} bytes]`;
}

function urlArgument(args: unknown): string {
  if (!isRecord(args)) {
    throw new ModelRetry('send a JSON object with one property "url" holding an http(s) URL');
  }
  const extra = Object.keys(args).filter((key) => key !== 'url');
  if (extra.length > 0) {
    throw new ModelRetry(
      `unknown argument ${JSON.stringify(extra[0])}; send only {"url": "https://…"}`,
    );
  }
  const url = args.url;
  if (typeof url !== 'string' || url.trim() === '') {
    throw new ModelRetry('"url" must be a non-empty string holding an absolute http(s) URL');
  }
  if (url.length > MAX_URL_LENGTH) {
    throw new ModelRetry(`"url" is longer than ${MAX_URL_LENGTH} characters`);
  }
  return url;
}

/** Parses and checks the requested URL: mistakes the model can fix are `ModelRetry`. */
function checkRequested(text: string, config: WebFetchConfig): StaticCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ModelRetry(
      `${JSON.stringify(text)} is not an absolute URL; send a full http(s) URL such as "https://example.com/page"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelRetry(
      `the scheme "${url.protocol}" is not supported; only http and https URLs can be fetched`,
    );
  }
  if (url.hostname === '') throw new ModelRetry(`${JSON.stringify(text)} has no host`);
  url.hash = '';
  const check = checkStatic(url, config);
  if (url.username !== '' || url.password !== '') {
    throw new ModelRetry('the URL carries credentials (user:password@); send it without them');
  }
  return check;
}

function convertHtml(toText: (html: string) => string, html: string, url: string): string {
  try {
    return toText(html);
  } catch (cause) {
    throw new WebFetchError(url, `the HTML could not be converted: ${causeText(cause)}`, { cause });
  }
}

/**
 * A `web_fetch` tool: GETs one http(s) URL and returns the body as text the model can read.
 * HTML is converted with html-to-text; other text, JSON, XML and YAML pass through; other media
 * types are refused. SSRF protection is on: every hop (redirects included, at most
 * `maxRedirects`) is checked, every resolved address must be public, and the connection is pinned
 * to the checked address. Loopback and private addresses are reachable only through
 * `allowPrivateNetwork` or `allowPrivateHosts`. Throws a `webfetch` `ConfigError` for bad
 * options.
 *
 * Errors: argument mistakes → `ModelRetry`; `StatusError`, `UnsupportedContentTypeError`,
 * `UnsupportedContentEncodingError`, `BlockedDestinationError`, `TooManyRedirectsError`,
 * `WebFetchError` (transport) and `DeadlineExceededError` (timeouts) otherwise.
 *
 * @example
 * const agent = new Agent({ model, tools: [webFetch({ maxBytes: 200_000 })] });
 */
export function webFetch(options?: WebFetchOptions): Tool {
  const config = resolveOptions(options);
  const toText = htmlConverter(config.includeLinks);
  return defineTool({
    name: WEB_FETCH_TOOL_NAME,
    description: DESCRIPTION,
    schema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The absolute http or https URL to fetch.' },
      },
      required: ['url'],
      additionalProperties: false,
    },
    execute: async (args, ctx) => {
      if (ctx.signal.aborted) throw cancellationError(ctx.signal);
      const check = checkRequested(urlArgument(args), config);
      const scope = new FetchScope(ctx.signal, config.timeout, check.url.href);
      try {
        const { body, mediaType, url } = await fetchPage(check, config, scope);
        let text = body.bytes.toString('utf8');
        let cutAt = body.truncated ? body.bytes.length : undefined;
        if (isHtmlType(mediaType)) {
          const cut = nestingCutIndex(text);
          if (cut !== undefined) {
            text = text.slice(0, cut);
            cutAt = Buffer.byteLength(text);
          }
          text = convertHtml(toText, text, url);
        }
        return cutAt === undefined ? text : text + truncationMarker(cutAt);
      } finally {
        scope.dispose();
      }
    },
  });
}
