/**
 * Push notifications of our A2A server: configs sent with a message or created for a task, the
 * stream events POSTed in order with the token and credentials, `allow` and URL checks, owner
 * scoping, the per-task limit, PushNotificationNotSupported without the option, and a failing
 * receiver that neither breaks the task nor leaks the token.
 */
import { Agent, defineTool } from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { parseCard } from '../../src/a2a/card-check';
import type { A2AServerOptions } from '../../src/a2a/server/server-options';
import { call, callError, closeAll, message, send, serve, webhook } from './server-harness';

afterEach(closeAll);

const TOKEN = 'tok-secret-1234';
const CREDENTIALS = 'cred-secret-5678';

function textAgent(...texts: string[]): Agent {
  return new Agent({ model: new ScriptedModel(texts.map((t) => textResponse(t))) });
}

const allowAll: A2AServerOptions['pushNotifications'] = { allow: () => true };

/** The state or artifact text of a notification body. */
function kind(body: Record<string, unknown>): string {
  if ('statusUpdate' in body) {
    return (body.statusUpdate as { status: { state: string } }).status.state;
  }
  const update = body.artifactUpdate as { artifact: { parts: Array<{ text?: string }> } };
  return `artifact:${update.artifact.parts[0]?.text ?? '?'}`;
}

describe('without the pushNotifications option', () => {
  test('the card says false and every push method is PushNotificationNotSupported (-32003)', async () => {
    const { url } = await serve({ agents: textAgent('ok') });
    const card = parseCard(await (await fetch(`${url}/.well-known/agent-card.json`)).json());
    expect(card.capabilities?.pushNotifications).toBe(false);
    const task = await send(url, message('hi'));
    const config = { taskId: task.id, url: 'http://127.0.0.1:1/hook' };
    for (const [method, params] of [
      ['CreateTaskPushNotificationConfig', config],
      ['GetTaskPushNotificationConfig', { taskId: task.id, id: 'x' }],
      ['ListTaskPushNotificationConfigs', { taskId: task.id }],
      ['DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'x' }],
    ] as const) {
      expect(await callError(url, method, params)).toMatchObject({ code: -32003 });
    }
    expect(
      await callError(url, 'SendMessage', {
        ...message('hi'),
        configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.1:1/hook' } },
      }),
    ).toMatchObject({ code: -32003 });
  });
});

describe('with pushNotifications', () => {
  test('the card says true', async () => {
    const { server } = await serve({ agents: textAgent(), pushNotifications: allowAll });
    expect(server.card.capabilities?.pushNotifications).toBe(true);
  });

  test('a config sent with the message gets WORKING, the artifact, COMPLETED in order, with token and credentials', async () => {
    const hook = await webhook();
    const { url } = await serve({ agents: textAgent('four'), pushNotifications: allowAll });
    const task = await send(url, {
      ...message('2+2?'),
      configuration: {
        taskPushNotificationConfig: {
          url: hook.url,
          token: TOKEN,
          authentication: { scheme: 'Bearer', credentials: CREDENTIALS },
        },
      },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await hook.until(3);
    expect(got.map((r) => kind(r.body))).toEqual([
      'TASK_STATE_WORKING',
      'artifact:four',
      'TASK_STATE_COMPLETED',
    ]);
    for (const request of got) {
      expect(request.path).toBe('/hook');
      expect(request.headers['x-a2a-notification-token']).toBe(TOKEN);
      expect(request.headers.authorization).toBe(`Bearer ${CREDENTIALS}`);
      expect(request.headers['content-type']).toBe('application/a2a+json');
    }
    expect(got[0]?.body).toEqual({
      statusUpdate: {
        taskId: task.id,
        contextId: task.contextId,
        status: { state: 'TASK_STATE_WORKING', timestamp: expect.any(String) as unknown },
      },
    });
    expect(got[1]?.body).toMatchObject({
      artifactUpdate: { taskId: task.id, lastChunk: true, artifact: { parts: [{ text: 'four' }] } },
    });
    // The configs answer without the credentials they were given.
    const listed = (await call(url, 'ListTaskPushNotificationConfigs', { taskId: task.id })) as {
      configs: Array<Record<string, unknown>>;
    };
    expect(listed).toEqual({
      configs: [
        {
          id: expect.any(String) as unknown,
          taskId: task.id,
          url: hook.url,
          token: TOKEN,
          authentication: { scheme: 'Bearer' },
        },
      ],
      nextPageToken: '',
    });
  });

  test('a task that needs input is notified INPUT_REQUIRED, then the resume through COMPLETED', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pay',
      schema: { type: 'object', properties: {} },
      approval: true,
      execute: () => 'paid',
    });
    const model = new FunctionModel((request) =>
      request.messages.some((m) => m.role === 'tool')
        ? textResponse('Done, paid.')
        : toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]),
    );
    const hook = await webhook();
    const { url } = await serve({
      agents: new Agent({ model, tools: [pay], deferredTools: true }),
      pushNotifications: allowAll,
    });
    const paused = await send(url, message('pay'));
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const created = (await call(url, 'CreateTaskPushNotificationConfig', {
      taskId: paused.id,
      id: 'cfg-1',
      url: hook.url,
      token: TOKEN,
    })) as Record<string, unknown>;
    expect(created).toEqual({ id: 'cfg-1', taskId: paused.id, url: hook.url, token: TOKEN });
    expect(
      await call(url, 'GetTaskPushNotificationConfig', { taskId: paused.id, id: 'cfg-1' }),
    ).toEqual(created);
    await send(url, {
      message: {
        messageId: 'm-ok',
        role: 'ROLE_USER',
        taskId: paused.id,
        parts: [{ data: { approvals: { p1: true } } }],
      },
    });
    const got = await hook.until(3);
    expect(got.map((r) => kind(r.body))).toEqual([
      'TASK_STATE_WORKING',
      'artifact:Done, paid.',
      'TASK_STATE_COMPLETED',
    ]);
    const inline = await webhook();
    const second = await send(url, {
      ...message('pay again'),
      configuration: { taskPushNotificationConfig: { url: inline.url } },
    });
    expect(second.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const notes = await inline.until(2);
    expect(notes.map((r) => kind(r.body))).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    expect(notes[1]?.body).toMatchObject({
      statusUpdate: {
        status: { message: { parts: [{ text: 'input required for: pay' }, {}] } },
      },
    });
    expect(notes[0]?.headers['x-a2a-notification-token']).toBeUndefined();
  });

  test('allow decides; non-http(s) URLs and URLs with credentials are refused before it; nothing is stored', async () => {
    const asked: string[] = [];
    const { url } = await serve({
      agents: textAgent('ok', 'ok'),
      pushNotifications: {
        allow: (target, taskId) => {
          asked.push(`${target.host}:${taskId}`);
          return target.hostname === 'hooks.example.com';
        },
      },
    });
    const task = await send(url, message('hi'));
    const refused = await callError(url, 'CreateTaskPushNotificationConfig', {
      taskId: task.id,
      url: 'http://10.0.0.1/hook?key=SECRETQ',
    });
    expect(refused).toMatchObject({ code: -32602 });
    expect(refused.message).not.toMatch(/SECRETQ|10\.0\.0\.1/);
    expect(asked).toEqual([`10.0.0.1:${task.id}`]);
    for (const bad of ['ftp://hooks.example.com/x', 'http://user:pw@hooks.example.com/x', 'nope']) {
      expect(
        await callError(url, 'CreateTaskPushNotificationConfig', { taskId: task.id, url: bad }),
      ).toMatchObject({ code: -32602 });
    }
    expect(asked).toHaveLength(1);
    expect(await call(url, 'ListTaskPushNotificationConfigs', { taskId: task.id })).toEqual({
      configs: [],
      nextPageToken: '',
    });
    // Refused with a message: no task starts.
    expect(
      await callError(url, 'SendMessage', {
        ...message('hi'),
        configuration: { taskPushNotificationConfig: { url: 'http://10.0.0.2/h' } },
      }),
    ).toMatchObject({ code: -32602 });
    const list = (await call(url, 'ListTasks', {})) as { tasks: unknown[] };
    expect(list.tasks).toHaveLength(1);
    const ok = await call(url, 'CreateTaskPushNotificationConfig', {
      taskId: task.id,
      url: 'https://hooks.example.com/a2a',
    });
    expect(ok).toMatchObject({ taskId: task.id, url: 'https://hooks.example.com/a2a' });
  });

  test('configs are owner-scoped like their tasks, and a task holds at most 10', async () => {
    const hook = await webhook();
    const { url } = await serve({
      agents: textAgent('for alice'),
      pushNotifications: allowAll,
      authenticate: (req) =>
        typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : false,
    });
    const alice = { 'x-user': 'alice' };
    const bob = { 'x-user': 'bob' };
    const task = await send(url, message('hi'), alice);
    await call(
      url,
      'CreateTaskPushNotificationConfig',
      { taskId: task.id, id: 'a', url: hook.url },
      alice,
    );
    for (const [method, params] of [
      ['CreateTaskPushNotificationConfig', { taskId: task.id, url: hook.url }],
      ['GetTaskPushNotificationConfig', { taskId: task.id, id: 'a' }],
      ['ListTaskPushNotificationConfigs', { taskId: task.id }],
      ['DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'a' }],
    ] as const) {
      expect(await callError(url, method, params, bob)).toMatchObject({ code: -32001 });
    }
    for (let i = 1; i < 10; i += 1) {
      await call(
        url,
        'CreateTaskPushNotificationConfig',
        { taskId: task.id, id: `c${String(i)}`, url: hook.url },
        alice,
      );
    }
    expect(
      await callError(
        url,
        'CreateTaskPushNotificationConfig',
        { taskId: task.id, id: 'eleventh', url: hook.url },
        alice,
      ),
    ).toMatchObject({ code: -32602 });
    // Replacing one of the ten is fine.
    await call(
      url,
      'CreateTaskPushNotificationConfig',
      { taskId: task.id, id: 'a', url: `${hook.url}2` },
      alice,
    );
    expect(
      await call(url, 'DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'a' }, alice),
    ).toBeNull();
    expect(
      await callError(url, 'GetTaskPushNotificationConfig', { taskId: task.id, id: 'a' }, alice),
    ).toMatchObject({ code: -32001 });
    const listed = (await call(
      url,
      'ListTaskPushNotificationConfigs',
      { taskId: task.id },
      alice,
    )) as { configs: unknown[] };
    expect(listed.configs).toHaveLength(9);
  });

  test('a failing receiver does not break the task and reaches onError without token, query or credentials', async () => {
    const hook = await webhook(500);
    const errors: Array<{ error: unknown; info: unknown }> = [];
    let reported: () => void = () => undefined;
    const threeErrors = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const { url } = await serve({
      agents: textAgent('fine'),
      pushNotifications: allowAll,
      onError: (error, info) => {
        errors.push({ error, info });
        if (errors.length === 3) reported();
      },
    });
    const task = await send(url, {
      ...message('go'),
      configuration: {
        taskPushNotificationConfig: {
          url: `${hook.url}?sig=QUERYSECRET`,
          token: TOKEN,
          authentication: { scheme: 'Basic', credentials: CREDENTIALS },
        },
      },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'fine' }]);
    await threeErrors;
    expect((await hook.until(3)).map((r) => r.path)).toEqual([
      '/hook?sig=QUERYSECRET',
      '/hook?sig=QUERYSECRET',
      '/hook?sig=QUERYSECRET',
    ]);
    for (const { error, info } of errors) {
      const text = `${String(error)} ${JSON.stringify(info)} ${JSON.stringify(error)} ${
        (error as Error).stack ?? ''
      }`;
      expect(text).toMatch(/HTTP 500/);
      expect(text).toContain(task.id);
      expect(text).not.toMatch(/QUERYSECRET|tok-secret|cred-secret/);
    }
  });

  test('an unreachable receiver times out or fails without holding the task back', async () => {
    const errors: unknown[] = [];
    let done: () => void = () => undefined;
    const reported = new Promise<void>((resolve) => {
      done = resolve;
    });
    const { url } = await serve({
      agents: textAgent('fine'),
      pushNotifications: {
        allow: () => true,
        timeoutMs: 50,
        fetch: (_input, init) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => {
              reject(init.signal?.reason as Error);
            });
          }),
      },
      onError: (error) => {
        errors.push(error);
        if (errors.length === 1) done();
      },
    });
    const task = await send(url, {
      ...message('go'),
      configuration: { taskPushNotificationConfig: { url: 'http://hooks.example.com/x' } },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    await reported;
    expect(String(errors[0])).toMatch(/no answer within 50 ms/);
  });
});
