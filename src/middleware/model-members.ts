/**
 * The models a call may be answered by: a `FallbackModel`'s members (its name is
 * `fallback(a, b, …)`, nested ones flattened), or the model itself. Internal.
 */
export function modelMembers(name: string | undefined): (string | undefined)[] {
  if (name === undefined || !name.startsWith('fallback(') || !name.endsWith(')')) return [name];
  const inner = name.slice('fallback('.length, -1);
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ',' && inner[i + 1] === ' ') {
      members.push(inner.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  members.push(inner.slice(start));
  return members.flatMap((member) => modelMembers(member));
}
