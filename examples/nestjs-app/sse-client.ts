/** One server-sent event as a client reads it. */
export interface ReceivedEvent {
  event: string;
  data: unknown;
}

/** Parses a complete `text/event-stream` body into its events (data is JSON here). */
export function parseEventStream(text: string): ReceivedEvent[] {
  const events: ReceivedEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) as unknown });
  }
  return events;
}
