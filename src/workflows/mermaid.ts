import type { WorkflowRunInfo } from './run-info';
import type { WorkflowShape } from './shape';
import type { StepRecord } from './step-record';

/** The classes a run's step nodes get, one per state. */
const CLASS_DEFS = [
  'classDef completed fill:#d4edda,stroke:#28a745',
  'classDef running fill:#cce5ff,stroke:#007bff',
  'classDef suspended fill:#fff3cd,stroke:#ffc107',
  'classDef failed fill:#f8d7da,stroke:#dc3545',
  'classDef pending fill:#eeeeee,stroke:#999999,stroke-dasharray:3 3',
];

/**
 * A Mermaid `flowchart TD` of a workflow's static shape (`workflowGraph`) or of a run
 * (`runner.get`): one node per step key with its state as a class (`completed`, `running`,
 * `suspended`, `failed`, and `pending` for declared steps not reached yet); steps that ran in
 * parallel are drawn as a fan-out and fan-in. Step names are escaped: they cannot inject syntax.
 */
export function toMermaid(subject: WorkflowShape | WorkflowRunInfo): string {
  return 'id' in subject ? runChart(subject) : shapeChart(subject);
}

/** `text` as a quoted Mermaid label: everything beyond plain characters as `#code;` entities. */
export function mermaidLabel(text: string): string {
  let out = '';
  for (const char of text.replace(/[\r\n]+/g, ' ')) {
    out += /^[A-Za-z0-9 _.,:!?/+=*'@$^~-]$/.test(char) ? char : `#${String(char.codePointAt(0))};`;
  }
  return `"${out}"`;
}

/** Gives each name a Mermaid-safe, unique node id. */
function nodeIds(names: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const name of names) {
    const base = `s_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}_${String(n)}`;
    used.add(id);
    ids.set(name, id);
  }
  return ids;
}

function shapeChart(shape: WorkflowShape): string {
  const ids = nodeIds(shape.steps.map((s) => s.name));
  const lines = ['flowchart TD'];
  for (const step of shape.steps) lines.push(`  ${id(ids, step.name)}[${mermaidLabel(step.name)}]`);
  for (const step of shape.steps)
    for (const next of step.next) lines.push(`  ${id(ids, step.name)} --> ${id(ids, next)}`);
  return lines.join('\n');
}

function runChart(run: WorkflowRunInfo): string {
  const steps = [...run.steps].sort((a, b) => a.seq - b.seq);
  const reached = new Set(steps.map((s) => s.name));
  const pending = (run.shape?.steps ?? []).filter((s) => !reached.has(s.name));
  const ids = nodeIds([...steps.map((s) => s.key), ...pending.map((s) => `pending:${s.name}`)]);
  const lines = ['flowchart TD', ...CLASS_DEFS.map((c) => `  ${c}`)];
  for (const step of steps)
    lines.push(`  ${id(ids, step.key)}[${mermaidLabel(step.key)}]:::${step.status}`);
  for (const step of pending)
    lines.push(`  ${id(ids, `pending:${step.name}`)}[${mermaidLabel(step.name)}]:::pending`);
  const groups = groupsOf(steps);
  for (let i = 1; i < groups.length; i++)
    for (const from of groups[i - 1] ?? [])
      for (const to of groups[i] ?? []) lines.push(`  ${id(ids, from.key)} --> ${id(ids, to.key)}`);
  // Steps not reached yet hang off the declared edges: from the last steps that ran to the
  // declared steps they lead to, and between declared steps (dotted: what may still happen).
  const waiting = new Set(pending.map((s) => s.name));
  const nextOf = new Map((run.shape?.steps ?? []).map((s) => [s.name, s.next]));
  for (const from of groups[groups.length - 1] ?? [])
    for (const next of nextOf.get(from.name) ?? [])
      if (waiting.has(next))
        lines.push(`  ${id(ids, from.key)} -.-> ${id(ids, `pending:${next}`)}`);
  for (const step of pending)
    for (const next of step.next)
      if (waiting.has(next))
        lines.push(`  ${id(ids, `pending:${step.name}`)} -.-> ${id(ids, `pending:${next}`)}`);
  return lines.join('\n');
}

/** Steps in consecutive parallel groups (a group of one is a plain sequence step). */
function groupsOf(steps: readonly StepRecord[]): StepRecord[][] {
  const groups: StepRecord[][] = [];
  const byGroup = new Map<number, StepRecord[]>();
  for (const step of steps) {
    const group = step.group ?? step.seq;
    let members = byGroup.get(group);
    if (members === undefined) {
      members = [];
      byGroup.set(group, members);
      groups.push(members);
    }
    members.push(step);
  }
  return groups;
}

function id(ids: Map<string, string>, name: string): string {
  return ids.get(name) ?? 's_unknown';
}
