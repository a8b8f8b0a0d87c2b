/**
 * Elicitation answers are checked against the server's `requestedSchema` before they are sent
 * (server-everything's `trigger-elicitation-request`: `integer` has minimum 1, maximum 100).
 */
import { ModelRetry } from 'golem';
import { connectMcp, type McpElicitationOptions } from 'golem/mcp';
import { referenceStdio } from './reference';
import { call, caughtAs, named, stdioServer } from './support';
import { configErrorGuard } from '../../support/config-error';

async function elicited(options: Omit<McpElicitationOptions, 'handler'>): Promise<string> {
  const client = await connectMcp({
    transport: referenceStdio('server-everything', ['stdio']),
    elicitation: {
      ...options,
      handler: () => ({ action: 'accept', content: { name: 'Ada', integer: 500 } }),
    },
  });
  try {
    return await call(named(await client.tools(), 'trigger-elicitation-request'), {});
  } finally {
    await client.close();
  }
}

test('an answer outside the schema is not sent: the server gets an error naming field and rule, not the value', async () => {
  const error = await caughtAs(ModelRetry.is, () => elicited({}));
  expect(error.reason).toContain(
    'golem: the elicitation answer does not fit the requested schema: field "integer" must be at most 100',
  );
  expect(error.reason).not.toContain('500');
}, 30_000);

test("invalidAnswer: 'decline' answers the server as a decline", async () => {
  expect(await elicited({ invalidAnswer: 'decline' })).toContain(
    'User declined to provide the requested information.',
  );
}, 30_000);

test('invalidAnswer must be error or decline', async () => {
  const error = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({
      transport: stdioServer('stdio-server.js'),
      elicitation: { handler: () => ({ action: 'cancel' }), invalidAnswer: 'drop' as 'error' },
    }),
  );
  expect(error.message).toBe(
    'mcp: option `elicitation.invalidAnswer` must be "error" or "decline", got "drop"',
  );
});
