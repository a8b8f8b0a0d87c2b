/**
 * The one text-redaction implementation behind the provider adapters' `redact` and the MCP
 * bridge's `transportSecrets` / `redactText`.
 */
import { transportSecrets, redactText } from '../../../../src/mcp/secrets';
import { REDACTED, redactSecrets, secretForms } from '../../../../src/core/kit/redaction';
import { redact } from '../../../../src/core/kit/redact';

describe('secretForms', () => {
  test('as given, trimmed, JSON-escaped and URL-encoded; longest first, without duplicates', () => {
    expect(secretForms([' sk "key" '])).toEqual([
      '%20sk%20%22key%22%20',
      'sk%20%22key%22',
      ' sk \\"key\\" ',
      ' sk "key" ',
      'sk \\"key\\"',
      'sk "key"',
    ]);
    expect(secretForms(['abcd', 'abcd'])).toEqual(['abcd']);
  });

  test('forms shorter than four characters are left out; a lone surrogate is no failure', () => {
    expect(secretForms(['abc', ' ab '])).toEqual(['%20ab%20', ' ab ']);
    expect(secretForms(['key\ud800x'])).toEqual(['key\\ud800x', 'key\ud800x']);
  });
});

describe('redactSecrets', () => {
  test('a secret containing another is replaced whole, whatever order they are given in', () => {
    expect(redactSecrets('token=abcd-efgh', ['abcd', 'abcd-efgh'])).toBe(`token=${REDACTED}`);
  });

  test('no secrets leaves the text as it is', () => {
    expect(redactSecrets('nothing here', [])).toBe('nothing here');
  });
});

describe('both layers use it', () => {
  test('providers: redact finds the URL-encoded and JSON-escaped forms', () => {
    const key = 'sk "live" key';
    const text = `url ?k=${encodeURIComponent(key)} body ${JSON.stringify(key)}`;
    expect(redact(text, [key])).toBe(`url ?k=${REDACTED} body "${REDACTED}"`);
    expect(redact(text, undefined)).toBe(text);
  });

  test('MCP: transport secrets cover header credentials and query values in every form', () => {
    const secrets = transportSecrets(
      { authorization: 'Bearer tok-123456' },
      new URL('https://mcp.example/x?api_key=q%20secret%20'),
    );
    expect(secrets).toEqual(secretForms(['Bearer tok-123456', 'tok-123456', 'q secret ']));
    expect(redactText('sent Bearer tok-123456 and q secret', secrets)).toBe(
      `sent ${REDACTED} and ${REDACTED}`,
    );
    expect(redactText('unchanged', ['', 'zzzz'])).toBe('unchanged');
  });
});
