import { useEffect, useRef } from 'react';
import { streamUrl } from './api';

/**
 * Subscribes to a server-sent events endpoint (token as `?token=`: EventSource cannot send
 * headers) and calls `onData` with every `event`'s parsed JSON (the caller checks its shape). The connection closes on
 * unmount or when `path` changes (`null`: no subscription). EventSource reconnects by itself.
 */
export function useEventStream(
  path: string | null,
  event: string,
  onData: (data: unknown) => void,
): void {
  const handler = useRef(onData);
  handler.current = onData;
  useEffect(() => {
    if (path === null || typeof EventSource === 'undefined') return;
    const source = new EventSource(streamUrl(path));
    const listener = (message: MessageEvent<string>): void => {
      let data: unknown;
      try {
        data = JSON.parse(message.data) as unknown;
      } catch {
        return;
      }
      handler.current(data);
    };
    source.addEventListener(event, listener);
    return () => {
      source.removeEventListener(event, listener);
      source.close();
    };
  }, [path, event]);
}
