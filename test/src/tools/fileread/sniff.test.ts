import fc from 'fast-check';
import { isReadableText, sniffContentType } from 'golem/tools/fileread';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('sniffContentType (WHATWG / Go DetectContentType equivalent)', () => {
  test.each([
    ['', 'text/plain; charset=utf-8'],
    ['plain words\n', 'text/plain; charset=utf-8'],
    ['\x1b[31mred\x1b[0m\x0c', 'text/plain; charset=utf-8'],
    ['  <!DOCTYPE html><p>x', 'text/html; charset=utf-8'],
    ['<html>', 'text/html; charset=utf-8'],
    ['<p>para', 'text/html; charset=utf-8'],
    ['<pre>not a tag we know', 'text/plain; charset=utf-8'],
    ['<!-- c -->', 'text/html; charset=utf-8'],
    ['\n<?xml version="1.0"?>', 'text/xml; charset=utf-8'],
    ['%PDF-1.7', 'application/pdf'],
    ['%!PS-Adobe-3.0', 'application/postscript'],
    ['\xfe\xff\x00h', 'text/plain; charset=utf-16be'],
    ['\xff\xfeh\x00', 'text/plain; charset=utf-16le'],
    ['\xef\xbb\xbftext', 'text/plain; charset=utf-8'],
    ['\x00\x00\x01\x00', 'image/x-icon'],
    ['BM', 'image/bmp'],
    ['GIF89a', 'image/gif'],
    ['RIFF\x01\x02\x03\x04WEBPVP8 ', 'image/webp'],
    ['\x89PNG\r\n\x1a\n', 'image/png'],
    ['\xff\xd8\xff\xe0', 'image/jpeg'],
    ['FORM\x00\x00\x00\x00AIFF', 'audio/aiff'],
    ['ID3\x03', 'audio/mpeg'],
    ['OggS\x00', 'application/ogg'],
    ['MThd\x00\x00\x00\x06', 'audio/midi'],
    ['RIFF\x00\x00\x00\x00AVI ', 'video/avi'],
    ['RIFF\x00\x00\x00\x00WAVE', 'audio/wave'],
    ['\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom', 'video/mp4'],
    ['\x1a\x45\xdf\xa3', 'video/webm'],
    [`${'\x00'.repeat(34)}LP`, 'application/vnd.ms-fontobject'],
    ['\x00\x01\x00\x00', 'font/ttf'],
    ['OTTO', 'font/otf'],
    ['ttcf', 'font/collection'],
    ['wOFF', 'font/woff'],
    ['wOF2', 'font/woff2'],
    ['\x1f\x8b\x08', 'application/x-gzip'],
    ['PK\x03\x04', 'application/zip'],
    ['Rar!\x1a\x07\x00', 'application/x-rar-compressed'],
    ['Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'],
    ['\x00asm\x01\x00\x00\x00', 'application/wasm'],
    ['text\x00', 'application/octet-stream'],
    ['<html>\x00\x00', 'application/octet-stream'],
    ['\x7fELF\x02\x01\x01\x00', 'application/octet-stream'],
  ])('%j → %s', (data, type) => {
    expect(sniffContentType(latin1(data))).toBe(type);
  });

  test('only the first 512 bytes are examined', () => {
    expect(sniffContentType(Buffer.concat([Buffer.alloc(512, 0x61), Buffer.from([0])]))).toBe(
      'text/plain; charset=utf-8',
    );
    expect(sniffContentType(Buffer.concat([Buffer.alloc(511, 0x61), Buffer.from([0])]))).toBe(
      'application/octet-stream',
    );
  });

  test.each([
    ['text/plain; charset=utf-8', true],
    ['text/html; charset=utf-8', true],
    ['text/xml; charset=utf-8', true],
    ['application/json', true],
    ['application/x-yaml', true],
    ['application/javascript', true],
    ['text/plain; charset=utf-16le', false],
    ['application/pdf', false],
    ['image/png', false],
    ['application/octet-stream', false],
  ])('isReadableText(%s) is %s', (type, readable) => {
    expect(isReadableText(type)).toBe(readable);
  });

  test('any window with a binary data byte and no signature is never readable text', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 100 }),
        fc.constantFrom(0, 1, 8, 0x0b, 0x0e, 0x1a, 0x1c, 0x1f),
        fc.uint8Array({ maxLength: 100 }),
        (before, binary, after) => {
          const data = Buffer.concat([Buffer.from('a'), before, Buffer.from([binary]), after]);
          return !isReadableText(sniffContentType(data));
        },
      ),
    );
  });
});
