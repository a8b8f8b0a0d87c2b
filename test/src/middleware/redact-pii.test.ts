import fc from 'fast-check';
import { Agent, ConfigError, defineTool, RunError, textDocument, type ModelRequest } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import {
  detectPii,
  ibanValid,
  luhnValid,
  piiDetector,
  redactPii,
  type PiiFinding,
} from 'golem/middleware';

const kinds = (text: string): string[] => detectPii(text).map((s) => s.kind);
const found = (text: string): string[] => detectPii(text).map((s) => text.slice(s.start, s.end));

describe('the built-in detector', () => {
  test('finds each kind', () => {
    const text =
      'Mail jane.doe+x@example.co.uk, call +44 20 7946 0958 or (555) 123-4567, card 4111 1111 1111 1111, ' +
      'IBAN GB82 WEST 1234 5698 7654 32, SSN 123-45-6789, host 192.168.10.1.';
    expect(detectPii(text).map((s) => [s.kind, text.slice(s.start, s.end)])).toEqual([
      ['email', 'jane.doe+x@example.co.uk'],
      ['phone', '+44 20 7946 0958'],
      ['phone', '(555) 123-4567'],
      ['credit_card', '4111 1111 1111 1111'],
      ['iban', 'GB82 WEST 1234 5698 7654 32'],
      ['us_ssn', '123-45-6789'],
      ['ipv4', '192.168.10.1'],
    ]);
  });

  test('card numbers must pass Luhn; runs of one digit and wrong lengths are not cards', () => {
    expect(kinds('card 4111 1111 1111 1112')).toEqual([]);
    expect(kinds('card 4111-1111-1111-1111')).toEqual(['credit_card']);
    expect(kinds('card 4111111111111111')).toEqual(['credit_card']);
    expect(kinds('zeros 0000 0000 0000 0000')).toEqual([]);
    expect(kinds('short 424242424242')).toEqual([]); // 12 digits
    expect(kinds('amex 378282246310005')).toEqual(['credit_card']);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    expect(luhnValid('12a4')).toBe(false);
  });

  test('IBANs must pass mod-97', () => {
    expect(ibanValid('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE88 3704 0044 0532 0130 00')).toBe(false);
    expect(ibanValid('DE89')).toBe(false);
    expect(kinds('pay DE89370400440532013000 now')).toEqual(['iban']);
    expect(kinds('pay DE88370400440532013000 now')).toEqual([]);
  });

  test('no false positives on ordinary numbers', () => {
    expect(
      kinds('order 1700000000000 on 2024-01-15 at 10:30, version 1.2.3, total 12,345.67'),
    ).toEqual([]);
    expect(
      kinds('SSN-like but invalid: 000-12-3456, 666-12-3456, 900-12-3456, 123-00-4567'),
    ).toEqual([]);
    expect(kinds('not an IP: 256.1.1.1 or 1.2.3.4.5')).toEqual([]);
    expect(kinds('no email: a@b, @example.com')).toEqual([]);
  });

  test('kinds can be narrowed, and must be known', () => {
    const onlyEmail = piiDetector({ kinds: ['email'] });
    expect(onlyEmail('a@example.com 192.168.0.1').map((s) => s.kind)).toEqual(['email']);
    expect(() => piiDetector({ kinds: ['name' as never] })).toThrow(ConfigError);
  });

  test('a Luhn-valid card embedded in text is found whole (property, fixed seed)', () => {
    const luhnDigit = (body: string): string => {
      for (let d = 0; d < 10; d++) if (luhnValid(body + String(d))) return String(d);
      throw new Error('unreachable');
    };
    fc.assert(
      fc.property(fc.stringMatching(/^4\d{14}$/), fc.constantFrom(' ', '-', ''), (body, sep) => {
        const digits = body + luhnDigit(body);
        if (/^(\d)\1*$/.test(digits)) return;
        const card = sep === '' ? digits : (digits.match(/.{1,4}/g) ?? []).join(sep);
        expect(found(`pay with ${card} today`)).toEqual([card]);
      }),
      { seed: 30, numRuns: 200 },
    );
  });
});

function recorder(): { model: FunctionModel; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model = new FunctionModel((request) => {
    seen.push(request);
    return textResponse('noted');
  });
  return { model, seen };
}

describe('redactPii', () => {
  test('the model receives redacted text; the run keeps the original', async () => {
    const { model, seen } = recorder();
    const findings: PiiFinding[][] = [];
    const agent = new Agent({
      model,
      instructions: 'Support desk.',
      middleware: [redactPii({ onFound: (f) => findings.push([...f]) })],
    });
    const prompt = 'I am jane@example.com, card 4111 1111 1111 1111.';
    const result = await agent.run(prompt);
    expect(seen[0]?.messages.map((m) => m.content)).toEqual([
      'Support desk.',
      'I am [REDACTED:email], card [REDACTED:credit_card].',
    ]);
    expect(result.messages.find((m) => m.role === 'user')?.content).toBe(prompt);
    expect(findings).toEqual([
      [
        { kind: 'email', role: 'user', message: 1, field: 'content' },
        { kind: 'credit_card', role: 'user', message: 1, field: 'content' },
      ],
    ]);
  });

  test('tool results are redacted; tool args only with toolArgs', async () => {
    const run = async (toolArgs: boolean): Promise<ModelRequest[]> => {
      const seen: ModelRequest[] = [];
      let turn = 0;
      const model = new FunctionModel((request) => {
        seen.push(request);
        return turn++ === 0
          ? toolCallResponse([{ id: 'c1', name: 'lookup', args: { email: 'bob@example.com' } }])
          : textResponse('done');
      });
      const lookup = defineTool({
        name: 'lookup',
        description: 'Finds a customer.',
        schema: { type: 'object', properties: { email: { type: 'string' } } },
        execute: () => 'Bob, phone +1 415-555-2671',
      });
      const agent = new Agent({ model, tools: [lookup], middleware: [redactPii({ toolArgs })] });
      await agent.run('find bob');
      return seen;
    };
    const plain = await run(false);
    expect(plain[1]?.messages[1]?.toolCalls?.[0]?.args).toBe('{"email":"bob@example.com"}');
    expect(plain[1]?.messages[2]?.content).toBe('Bob, phone [REDACTED:phone]');
    const withArgs = await run(true);
    expect(JSON.parse(withArgs[1]?.messages[1]?.toolCalls?.[0]?.args ?? '')).toEqual({
      email: '[REDACTED:email]',
    });
  });

  test('roles narrow what is redacted; text documents are redacted; replacement is pluggable', async () => {
    const { model, seen } = recorder();
    const agent = new Agent({
      model,
      instructions: 'Escalate to boss@example.com.',
      middleware: [redactPii({ roles: ['user'], replacement: ({ kind }) => `<${kind}>` })],
    });
    await agent.run('mine is me@example.com', {
      parts: [textDocument('ip 10.0.0.1', { name: 'log.txt' })],
    });
    const [system, user] = seen[0]?.messages ?? [];
    expect(system?.content).toBe('Escalate to boss@example.com.');
    expect(user?.content).toBe('mine is <email>');
    expect(new TextDecoder().decode(user?.parts?.[0]?.data)).toBe('ip <ipv4>');
    expect(user?.parts?.[0]?.name).toBe('log.txt');
  });

  test('an async plugged detector; overlapping spans keep the earliest, longest', async () => {
    const { model, seen } = recorder();
    const detector = async (text: string) => {
      await Promise.resolve();
      const at = text.indexOf('Ada Lovelace');
      return at < 0
        ? []
        : [
            { start: at + 4, end: at + 12, kind: 'SURNAME' },
            { start: at, end: at + 12, kind: 'PERSON' },
          ];
    };
    const agent = new Agent({ model, middleware: [redactPii({ detector, replacement: '***' })] });
    await agent.run('Dear Ada Lovelace, hi');
    expect(seen[0]?.messages[0]?.content).toBe('Dear ***, hi');
  });

  test('a detector that fails or returns a bad span fails the call: nothing is sent', async () => {
    for (const detector of [
      () => {
        throw new Error('ner down');
      },
      () => [{ start: 3, end: 99, kind: 'x' }],
      () => 'nope' as never,
    ]) {
      const { model, seen } = recorder();
      const agent = new Agent({ model, middleware: [redactPii({ detector })] });
      const error = await agent.run('hello').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunError);
      expect((error as RunError).stage).toBe('model');
      expect(seen).toHaveLength(0);
    }
  });

  test('nothing found: the request passes as it is', async () => {
    const { model, seen } = recorder();
    const onFound = jest.fn();
    const agent = new Agent({ model, middleware: [redactPii({ onFound })] });
    await agent.run('nothing personal here');
    expect(seen[0]?.messages[0]?.content).toBe('nothing personal here');
    expect(onFound).not.toHaveBeenCalled();
  });

  test('options are checked', () => {
    expect(() => redactPii({ roles: ['admin' as never] })).toThrow(ConfigError);
    expect(() => redactPii({ detector: 'x' as never })).toThrow(/detector must be a function/);
    expect(() => redactPii({ toolArgs: 'yes' as never })).toThrow(ConfigError);
    expect(() => redactPii({ replacement: 3 as never })).toThrow(ConfigError);
  });
});
