'use strict';
/**
 * What `npm run bench` measures: the scenarios, their columns (variants) and the two presets.
 *
 * Every zod scenario validates with zod in every column (the hand-written loop included); the
 * decorated column validates with class-validator DTOs and is labelled so; Golem with a
 * hand-written validator is an extra row, never the headline. A variant is one framework's column
 * read through one method of its `create()` instance (`frameworks/*.js`).
 */

const variant = (framework, label, method, key = framework) => ({ key, framework, label, method });

const ZOD = (method) => [
  variant('loop', 'hand-written loop (zod)', method),
  variant('golem', 'golem (zod)', method),
  variant('golem-decorated', 'golem decorated (class-validator DTOs)', method),
  variant('golem-handwritten', 'golem, hand-written validator (extra)', method),
  variant('ai-sdk', 'ai-sdk (zod)', method),
  variant('openai-agents', 'openai-agents (zod)', method),
  variant('langchain', 'langchain (zod)', method),
];

const STREAM = (suffix, aiSdkLabel) => [
  variant('loop', 'hand-written callback loop', `runStream${suffix}`),
  variant('golem', 'golem runStream, onDelta', `runStream${suffix}Callback`, 'golem:onDelta'),
  variant('golem', 'golem runStream, for await', `runStream${suffix}`),
  variant('golem', 'golem runStream(…).events', `runStream${suffix}Events`, 'golem:events'),
  variant('ai-sdk', aiSdkLabel, `runStream${suffix}`),
];

/** The scenarios, in print order. `deltas`: fragments streamed per run (per-delta figures). */
const SCENARIOS = [
  { id: 's1', label: 's1 3-turn tool loop, µs/run', variants: ZOD('runA') },
  { id: 's2', label: 's2 structured output, µs/run', variants: ZOD('runB') },
  {
    id: 's3',
    label: 's3 1,000 concurrent s1, µs/run (= ms per 1,000)',
    concurrent: 1000,
    variants: ZOD('runA'),
    // One 1,000-run batch of LangChain takes 6–26 s here: quick leaves it to the full run.
    quickSkip: ['langchain'],
  },
  {
    id: 'history',
    label: 'history: 200 messages (20 tool exchanges) + 1 turn, µs/run',
    variants: [
      variant('loop', 'hand-written loop (zod)', 'runHistory'),
      variant('golem', 'golem (zod), Agent.history', 'runHistory'),
      variant('golem', 'golem (zod), plain array', 'runHistoryPlain', 'golem:plain'),
      variant('golem', 'golem (zod), no history', 'runHistoryEmpty', 'golem:empty'),
      variant('ai-sdk', 'ai-sdk generateText (zod)', 'runHistory'),
    ],
  },
  {
    id: 'stream-text',
    label: 'stream-text: 1 turn of 2,000 text deltas, µs/run',
    deltas: 2000,
    variants: STREAM('Text', 'ai-sdk streamText, textStream'),
  },
  {
    id: 'stream-tool',
    label: 'stream-tool: streamed call (2,000 arg deltas) + answer, µs/run',
    deltas: 2001,
    variants: STREAM('Tool', 'ai-sdk streamText, fullStream'),
  },
  {
    id: 'middleware',
    label: 'middleware: s1 with 3 pass-through middleware, and with every call a cache hit, µs/run',
    variants: [
      variant('loop', 'hand-written loop (zod)', 'runA'),
      variant('golem', 'golem (zod), no middleware', 'runA'),
      variant('golem', 'golem, 3 pass-through middleware', 'runAMiddleware3', 'golem:mw3'),
      variant('golem', 'golem, responseCache (memory), all hits', 'runACached', 'golem:cached'),
    ],
  },
  {
    id: 'define',
    label: '(g) define the s1 agent, µs (decorated: fresh classes + compile)',
    variants: ZOD('runDefine').filter((v) => v.framework !== 'loop'),
  },
];

/**
 * Run counts and caps: `full` is what issue 21 asks; `quick` stays under 5 minutes on 2 cores;
 * `steady` is issue 35's targets in the steady state — every process warms up for 1.5 s and
 * times 2 s, whatever the run count (quick's 2,000 warm-up runs end while V8 still compiles the
 * engine's functions: its CPU per run is then several times its wall time, and golem's figures
 * measure the compiler as much as the run).
 */
const PRESETS = {
  full: {
    warmupRuns: 5000,
    warmupMs: 5000,
    timedRuns: 50000,
    timedMs: 15000,
    processes: 3,
    batchUs: 200,
    memoryRuns: 100000,
    scenarios: 's1,s2,s3,history,stream-text,stream-tool,middleware,memory,define,e,f,h',
    memoryVariants: 'loop,golem,golem-decorated,ai-sdk,openai-agents',
  },
  quick: {
    warmupRuns: 2000,
    warmupMs: 400,
    timedRuns: 10000,
    timedMs: 1000,
    processes: 3,
    batchUs: 200,
    memoryRuns: 20000,
    scenarios: 's1,s2,s3,history,stream-text,stream-tool,memory',
    memoryVariants: 'loop,golem,golem-decorated',
  },
  steady: {
    warmupRuns: Number.MAX_SAFE_INTEGER,
    warmupMs: 1500,
    timedRuns: Number.MAX_SAFE_INTEGER,
    timedMs: 2000,
    processes: 5,
    batchUs: 200,
    memoryRuns: 20000,
    scenarios: 's1,s2,history,stream-text',
    memoryVariants: 'loop,golem,golem-decorated',
    // LangChain's s1 run takes ~6 ms: 3.5 s per process of it adds nothing to issue 35's ratios.
    skip: ['langchain'],
  },
};

module.exports = { SCENARIOS, PRESETS };
