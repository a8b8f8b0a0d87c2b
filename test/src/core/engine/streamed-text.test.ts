import {
  StreamedText,
  recordsStreamedText,
  streamedTextOf,
} from '../../../../src/core/engine/streamed-text';

describe('StreamedText: a model call’s streamed answer text', () => {
  test('keeps the fragments in order, skips empty and missing ones, and reads the same twice', () => {
    const text = new StreamedText();
    expect(text.empty).toBe(true);
    expect(text.text()).toBe('');
    text.add('Hel');
    text.add(undefined);
    text.add('');
    text.add('lo');
    expect(text.empty).toBe(false);
    expect(text.text()).toBe('Hello');
    // Read again, and added to after a read: the joined text is kept, the new fragments follow.
    expect(text.text()).toBe('Hello');
    text.add(', world');
    expect(text.text()).toBe('Hello, world');
  });

  test('clear starts over; a cleared record is empty until text comes', () => {
    const text = new StreamedText();
    for (let i = 0; i < 1_000; i++) text.add(String(i % 10));
    expect(text.text()).toHaveLength(1_000);
    text.clear();
    expect(text.empty).toBe(true);
    expect(text.text()).toBe('');
    text.add('next');
    expect(text.text()).toBe('next');
  });

  test('a handler is found with the record it declared; any other handler has none', () => {
    const text = new StreamedText();
    const handler = (): void => undefined;
    recordsStreamedText(handler, text);
    expect(streamedTextOf(handler)).toBe(text);
    expect(streamedTextOf(() => undefined)).toBeUndefined();
  });
});
