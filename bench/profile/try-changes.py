"""
The engine changes proposed in RESULTS.md, tried as text patches on a scratch COPY of the built
dist (never on src/), so their effect could be measured before anyone edits the sources.

    mkdir -p /tmp/golem-exp && cp -r ../dist /tmp/golem-exp/dist-orig
    ln -s "$PWD/../node_modules" /tmp/golem-exp/node_modules   # the decorators' dependencies
    python3 profile/try-changes.py vrec 1234568D                 # -> /tmp/golem-exp/vrec
    GOLEM_BENCH_DIST=/tmp/golem-exp/vrec node --expose-gc run.js --quick --scenarios=s1,s2,s3

Patch keys: 1 tool signal, 2 events, 3 request specs, 4 safe JSON, 5 run start, 6 evidence,
7 shared never-aborted run signal (upper bound of a lazy one), 8 inline tool invoke,
9 linked run signal (no AbortSignal.any/timeout), D flat DTOs without class-transformer.
The patches match the dist built from the sources of 2026-11-30; they fail loudly once the
sources move on.
"""
import sys, os, shutil
base = '/tmp/golem-exp/dist-orig'
def sub(root, rel, old, new, count=1):
    p = os.path.join(root, 'src', rel)
    s = open(p).read()
    assert old in s, (rel, old[:60])
    s = s.replace(old, new, count)
    open(p, 'w').write(s)

def p1_tool_signal(root):
    # tool-exec: own AbortController + run-signal listener only when the call has a deadline.
    sub(root, 'engine/tool-exec.js', """    const controller = new AbortController();
    const onRunAbort = () => {""", """    if (!(timeout > 0)) {
        let outcome;
        try {
            outcome = { ok: true, text: await invoke(input, runSignal) };
        }
        catch (error) {
            outcome = { ok: false, error, cancelled: false };
        }
        if (isAborted(runSignal))
            return { ok: false, error: (0, cancellation_1.cancellationError)(runSignal), cancelled: true };
        return outcome;
    }
    const controller = new AbortController();
    const onRunAbort = () => {""")

def p2_events(root):
    # Build event objects only when someone listens.
    sub(root, 'engine/run-state.js', """    emit(event) {""", """    get observed() {
        return this.run.observers.length > 0;
    }
    emit(event) {""")
    sub(root, 'engine/model-turn.js', """        state.emit({ kind: 'model_start', turn, attempt });""", """        if (state.observed)
            state.emit({ kind: 'model_start', turn, attempt });""")
    sub(root, 'engine/model-turn.js', """        state.emit({ kind: 'model_end', turn, attempt, usage: { ...response.usage } });""", """        if (state.observed)
            state.emit({ kind: 'model_end', turn, attempt, usage: { ...response.usage } });""")
    sub(root, 'engine/tool-batch.js', """            state.emit({
                kind: 'tool_start',""", """            if (state.observed) state.emit({
                kind: 'tool_start',""")
    sub(root, 'engine/tool-batch.js', """    const base = { turn, attempt: 0, callId: call.id, toolName: call.name, args: call.args };
    if (!outcome.ok""", """    if (outcome.ok && !state.observed) {
        state.toolCalls++;
        return;
    }
    const base = { turn, attempt: 0, callId: call.id, toolName: call.name, args: call.args };
    if (!outcome.ok""")

def p3_request(root):
    # Share the (frozen) tool specs instead of copying them into every request.
    sub(root, 'engine/loop.js', """tools: [...config.specs] };""", """tools: config.specs };""")
    sub(root, '../src/agent-validate.js' if False else 'agent-validate.js', """        specs,
        outputTool,""", """        specs: Object.freeze(specs),
        outputTool,""")

def p4_json(root):
    # parseUntrustedJson: skip the depth scan when the text is too short to nest past the limit,
    # and the key walk when no forbidden name (and no \\u escape that could spell one) appears.
    sub(root, 'model/safe-json.js', """    const depth = nestingDepth(text);
    if (depth > maxDepth)""", """    const depth = text.length <= maxDepth ? 0 : nestingDepth(text);
    if (depth > maxDepth)""")
    sub(root, 'model/safe-json.js', """    assertNoForbiddenKeys(parsed);
    return parsed;""", """    if (typeof parsed === 'object' && parsed !== null && (text.includes('\\\\u') || text.includes('__proto__') || text.includes('constructor') || text.includes('prototype')))
        assertNoForbiddenKeys(parsed);
    return parsed;""")

def p5_start(root):
    # Run start without needless allocations and awaits: no history copy/processor await when
    # there is no history and no processor, string instructions resolved synchronously,
    # observers/settings reused when the run adds none.
    sub(root, 'agent.js', """        const processed = await this.processHistory(options.history ?? [], run.signal);""", """        const processed = options.history === undefined && this.historyProcessor === undefined
            ? []
            : await this.processHistory(options.history ?? [], run.signal);""")
    sub(root, 'agent.js', """        const instructions = await (0, instructions_1.resolveInstructions)(this.instructions, ctx);""", """        const instructions = typeof this.instructions === 'string'
            ? this.instructions
            : await (0, instructions_1.resolveInstructions)(this.instructions, ctx);""")
    sub(root, 'agent.js', """        for (const message of (0, repair_1.repairHistory)(history))""", """        if (history.length > 0) for (const message of (0, repair_1.repairHistory)(history))""")
    sub(root, 'agent.js', """        const observers = [this.onEvent, options.observer].filter((o) => o !== undefined);
        const merged = { ...this.modelSettings, ...options.modelSettings };""", """        const observers = options.observer === undefined
            ? (this.onEvent === undefined ? NO_OBSERVERS : [this.onEvent])
            : [this.onEvent, options.observer].filter((o) => o !== undefined);
        const merged = options.modelSettings === undefined && this.modelSettings === undefined ? {} : { ...this.modelSettings, ...options.modelSettings };""")
    sub(root, 'agent.js', """class Agent {""", """const NO_OBSERVERS = Object.freeze([]);
class Agent {""")
    sub(root, 'agent.js', """    async run(prompt, ...[options]) {
        return (await this.runWith(prompt, options ?? {}));
    }""", """    run(prompt, ...[options]) {
        return this.runWith(prompt, options ?? {});
    }""")

def p6_evidence(root):
    # The finished run's state is dropped: hand its arrays over instead of copying them.
    sub(root, 'engine/run.js', """        messages: [...state.messages],
        usage: { ...state.usage },""", """        messages: state.messages,
        usage: state.usage,""")

PATCHES = {'1': p1_tool_signal, '2': p2_events, '3': p3_request, '4': p4_json, '5': p5_start, '6': p6_evidence}


def p7_shared_signal(root):
    # Upper bound of a lazily created run signal: no AbortController when the caller gives none.
    sub(root, 'agent.js', """            ? new AbortController().signal""", """            ? NEVER_ABORTED""")
    sub(root, 'agent.js', """class Agent {""", """const NEVER_ABORTED = new AbortController().signal;
class Agent {""")
PATCHES['7'] = p7_shared_signal
def p8_flatten_tool(root):
    # One async layer fewer per tool call: the deadline-free path runs invoke's body inline.
    sub(root, 'engine/tool-exec.js', """    if (!(timeout > 0)) {
        let outcome;
        try {
            outcome = { ok: true, text: await invoke(input, runSignal) };
        }""", """    if (!(timeout > 0)) {
        let outcome;
        try {
            const { call } = input;
            let args;
            try {
                args = (0, safe_json_1.parseUntrustedJson)(call.args);
            }
            catch (cause) {
                throw new errors_1.ModelRetry(`the arguments are not valid JSON (${(0, error_base_1.describeError)(cause)}); send a JSON object matching the tool's schema`, { cause });
            }
            const ctx = { deps: input.deps, signal: runSignal, callId: call.id, toolName: call.name, rawArgs: call.args, approved: input.approved, retry: input.retry };
            if (!input.approved && tool.approval !== undefined && tool.approval !== false) {
                const needed = tool.approval === true ? true : await tool.approval(args, ctx);
                if (needed)
                    throw (0, errors_2.requireApproval)();
            }
            let text = tool.execute(args, ctx);
            if (typeof text !== 'string') text = await text;
            if (typeof text !== 'string')
                throw new TypeError(`tool "${tool.name}" returned ${text === null ? 'null' : typeof text}; a tool must return a string for the model`);
            outcome = { ok: true, text };
        }""")

PATCHES['8'] = p8_flatten_tool

def pD1_flat_dto(root):
    # Decorators: a flat DTO (one class, no nested DTOs) skips class-transformer: an instance
    # with the prepared keys assigned is what plainToInstance builds for it. (A real change must
    # also check the class has no class-transformer metadata: @Type/@Transform/@Expose/@Exclude.)
    p = os.path.join(root, 'decorators/validation/validate-dto.js')
    s = open(p).read()
    old = """    const instance = (0, class_transformer_1.plainToInstance)(dto, prepared.value, exports.TRANSFORM_OPTIONS);"""
    assert old in s
    s = s.replace(old, """    const instance = compiled.closure.byClass.size === 1
        ? Object.assign(new dto(), prepared.value)
        : (0, class_transformer_1.plainToInstance)(dto, prepared.value, exports.TRANSFORM_OPTIONS);""")
    open(p, 'w').write(s)
PATCHES['D'] = pD1_flat_dto

def p9_linked_signal(root):
    # Caller signal + timeout(s): one AbortController linked by a listener and a timer, both
    # released when the run ends, instead of AbortSignal.any + AbortSignal.timeout (on Node 20
    # AbortSignal.any retains ~2.4 KB per run on a long-lived caller signal).
    sub(root, 'agent.js', """            signals.push(AbortSignal.timeout(Math.ceil(timeout)));""", """            // validated only; the timer is armed below""")
    sub(root, 'agent.js', """        const signal = signals.length === 0
            ? new AbortController().signal
            : signals.length === 1
                ? signals[0]
                : AbortSignal.any(signals);""", """        let signal;
        let dispose;
        const timeouts = [this.runTimeout, options.timeout].filter((t) => t !== undefined && t !== 0);
        if (timeouts.length === 0) {
            signal = options.signal ?? new AbortController().signal;
        }
        else {
            const controller = new AbortController();
            const onAbort = () => controller.abort(options.signal.reason);
            if (options.signal !== undefined) {
                if (options.signal.aborted) controller.abort(options.signal.reason);
                else options.signal.addEventListener('abort', onAbort, { once: true });
            }
            const ms = Math.ceil(Math.min(...timeouts));
            const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
            signal = controller.signal;
            dispose = () => { clearTimeout(timer); options.signal?.removeEventListener('abort', onAbort); };
        }""")
    sub(root, 'agent.js', """            onDelta,
        };
    }""", """            onDelta,
            dispose,
        };
    }""")
    sub(root, 'agent.js', """        const state = await this.prepare(prompt, options, undefined);
        return (0, run_1.executeRun)(this.engine, this.decoder, state);""", """        const state = await this.prepare(prompt, options, undefined);
        try {
            return await (0, run_1.executeRun)(this.engine, this.decoder, state);
        }
        finally {
            state.run.dispose?.();
        }""")
PATCHES['9'] = p9_linked_signal

if __name__ == '__main__':
    name, which = sys.argv[1], sys.argv[2]
    root = f'/tmp/golem-exp/{name}'
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(base, root)
    for k in which:
        PATCHES[k](root)
    print('built', root, 'with', which)
