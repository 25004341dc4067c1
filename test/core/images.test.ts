// Images from files, tools and sessions: recognised by their bytes, sent to models that read them (named to others),
// attached through the read jail, kept out of session files (a capped copy beside them), read back on resume.
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachFiles, attachImages } from '../../src/cli/chat-attach.js';
import { type AgentEvent, messageEvent } from '../../src/core/events.js';
import { imageType } from '../../src/core/images.js';
import { type ImagePart, imagesFor } from '../../src/core/messages.js';
import { contentImages } from '../../src/mcp/tool-adapter.js';
import { capabilitiesOf } from '../../src/providers/capabilities.js';
import { fingerprint } from '../../src/providers/cassette.js';
import { compare } from '../../src/providers/replay.js';
import { createReadJail } from '../../src/safety/read-jail.js';
import { exportSession } from '../../src/session/export.js';
import { parseSession, readSession, sessionMessages } from '../../src/session/session-file.js';
import { imagesDir, loadSessionImages } from '../../src/session/session-images.js';
import { createSessionStore } from '../../src/session/session-store.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { makeWorkspace, type TestWorkspace } from '../tools/helpers.js';

/** A 1×1 PNG, written by the tests where they need a file. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
  await ws.write('shot.png', png);
  await ws.write('fake.png', 'not an image at all\n');
  await ws.write('notes.txt', 'hello\n');
});
afterAll(() => ws.cleanup());

describe('image recognition', () => {
  it.each([
    ['png', png, 'image/png'],
    ['jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'image/jpeg'],
    ['gif', Buffer.from('GIF89a....'), 'image/gif'],
    ['webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 'image/webp'],
    ['text named .png', Buffer.from('hello'), undefined],
    ['riff that is not webp', Buffer.from('RIFF\0\0\0\0WAVEfmt '), undefined],
  ])('%s', (_, bytes, type) => {
    expect(imageType(bytes)).toBe(type);
  });

  it('the table says which models read images', () => {
    expect(capabilitiesOf('gpt-4o').images).toBe(true);
    expect(capabilitiesOf('anthropic/claude-sonnet-4-5').images).toBe(true);
    expect(capabilitiesOf('llama3.2-vision:11b').images).toBe(true);
    expect(capabilitiesOf('llama3.2').images).toBeUndefined();
    expect(capabilitiesOf('qwen3:8b', { id: 'qwen3:8b', images: false }).images).toBe(false);
  });
});

describe('read_file on an image', () => {
  it('returns an image part, with the type and size in the text', async () => {
    const result = await readFileTool.execute({ path: 'shot.png' }, ws.ctx);
    expect(result.success).toBe(true);
    expect(result.output).toBe('image shot.png (image/png, 70 B)');
    expect(result.images).toEqual([
      expect.objectContaining({
        type: 'image',
        mediaType: 'image/png',
        data: png.toString('base64'),
        bytes: 70,
      }),
    ]);
  });

  it('a file named .png that is not one is read as text', async () => {
    const result = await readFileTool.execute({ path: 'fake.png' }, ws.ctx);
    expect(result.images).toBeUndefined();
    expect(result.output).toContain('not an image');
  });

  it('a model without vision reads a description, a model with it gets the image', () => {
    const image: ImagePart = {
      type: 'image',
      mediaType: 'image/png',
      data: 'AA==',
      bytes: 70,
      name: 'shot.png',
    };
    expect(imagesFor(false, 'image shot.png', [image])).toEqual({
      content: 'image shot.png\n[image: shot.png (image/png, 70 B); this model cannot read images]',
    });
    expect(imagesFor(true, 'image shot.png', [image])).toEqual({
      content: 'image shot.png',
      images: [image],
    });
  });

  it("an MCP tool's image content becomes an image part; other binaries do not", () => {
    const images = contentImages(
      [
        { type: 'text', text: 'screenshot taken' },
        { type: 'image', mimeType: 'image/png', data: png.toString('base64') },
        { type: 'image', mimeType: 'image/png', data: Buffer.from('nope').toString('base64') },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
      'browser__shot',
    );
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mediaType: 'image/png', name: 'browser__shot image 2' });
  });
});

describe('@path images', () => {
  const vision = { readsImages: true, model: 'gpt-4o' };

  it('the chat attaches an image as an image part beside the text', async () => {
    const out = await attachFiles('what is in @shot.png?', ws.ctx.workspace, undefined, undefined, vision);
    expect(out.message).toBe('what is in @shot.png?');
    expect(out.images).toHaveLength(1);
    expect(out.attached).toEqual([{ path: 'shot.png', bytes: 70, cut: false }]);
  });

  it('a model without vision gets no image, and the user is told why', async () => {
    const out = await attachFiles('@shot.png', ws.ctx.workspace, undefined, undefined, {
      readsImages: false,
      model: 'llama3',
    });
    expect(out.images).toEqual([]);
    expect(out.skipped[0]!.reason).toContain('llama3 cannot read images');
  });

  it('keel ask and run -p attach images only, and refuse one the model cannot read', async () => {
    const images = await attachImages('@notes.txt and @shot.png', ws.ctx.workspace, undefined, vision);
    expect(images.map((i) => i.name)).toEqual(['shot.png']);
    await expect(
      attachImages('@shot.png', ws.ctx.workspace, undefined, { readsImages: false, model: 'llama3' }),
    ).rejects.toThrow(/cannot attach @shot.png: .*llama3 cannot read images/);
    // Over the limit: its size, and the limit as people say it.
    await writeFile(join(ws.root, 'huge.png'), Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]));
    await expect(attachImages('@huge.png', ws.ctx.workspace, undefined, vision)).rejects.toThrow(
      /cannot attach @huge\.png: an image of \d+ bytes, over the 5 MB limit/,
    );
  });

  it('a path with spaces, quoted or escaped as a terminal pastes it, and an image without its extension', async () => {
    await writeFile(join(ws.root, 'Screenshot 2025-01-01 at 10.00.00.png'), png);
    await writeFile(join(ws.root, 'snapshot'), png);
    const escaped = await attachImages(
      'what is in @Screenshot\\ 2025-01-01\\ at\\ 10.00.00.png ?',
      ws.ctx.workspace,
      undefined,
      vision,
    );
    expect(escaped.map((i) => i.name)).toEqual(['Screenshot 2025-01-01 at 10.00.00.png']);
    const quoted = await attachFiles(
      'see @"Screenshot 2025-01-01 at 10.00.00.png", @snapshot',
      ws.ctx.workspace,
      undefined,
      undefined,
      vision,
    );
    expect(quoted.images.map((i) => i.name)).toEqual(['Screenshot 2025-01-01 at 10.00.00.png', 'snapshot']);
    expect(quoted.skipped).toEqual([]);
    // Ask and run -p: a mention that is no image file stays text, whether or not it exists.
    expect(
      (await attachImages('@snapshot @types/node @nobody', ws.ctx.workspace, undefined, vision)).map(
        (i) => i.name,
      ),
    ).toEqual(['snapshot']);
  });

  it('an image linked from outside the workspace is refused by the read jail', async () => {
    const secret = join(ws.base, 'outside.png');
    await writeFile(secret, png);
    await symlink(secret, join(ws.root, 'link.png'));
    const out = await attachFiles('@link.png', ws.ctx.workspace, undefined, createReadJail({}), vision);
    expect(out.images).toEqual([]);
    expect(out.skipped).toHaveLength(1);
  });
});

describe('images in sessions and cassettes', () => {
  const image: ImagePart = {
    type: 'image',
    mediaType: 'image/png',
    data: png.toString('base64'),
    bytes: png.length,
    name: 'shot.png',
  };

  it('the session file keeps a hash and a copy beside it, and resume reads the bytes back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-images-'));
    try {
      const file = join(dir, 's1.jsonl');
      const store = createSessionStore({
        file,
        meta: { id: 's1', workspace: dir, provider: 'p', model: 'm' },
        resumed: false,
        redact: (t) => t,
      });
      await store.sink(messageEvent({ role: 'user', content: 'look', images: [image] }));
      await store.close();
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(image.data);
      expect(await readdir(imagesDir(file))).toHaveLength(1);

      const record = (await readSession(file))!;
      await loadSessionImages(record, file);
      expect(sessionMessages(record)[0]).toMatchObject({ images: [{ data: image.data, name: 'shot.png' }] });
      // An export names the attached image (never its bytes).
      for (const format of ['md', 'html'] as const) {
        const doc = exportSession(record, format);
        expect(doc).toMatch(/\[image: shot\.png \(image\/png/);
        expect(doc).not.toContain(image.data);
      }

      // The copy removed: the image comes back without bytes, and the model is told it is gone.
      await rm(imagesDir(file), { recursive: true });
      const again = (await readSession(file))!;
      await loadSessionImages(again, file);
      const [message] = sessionMessages(again);
      expect(message).toMatchObject({ images: [{ name: 'shot.png' }] });
      expect((message as { images: ImagePart[] }).images[0]!.data).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a line pointing outside the session's image folder is not read", async () => {
    const line = (path: string): AgentEvent & { time: string } =>
      ({
        type: 'message',
        role: 'user',
        content: 'x',
        images: [{ type: 'image', media_type: 'image/png', path }],
        time: 't',
      }) as AgentEvent & { time: string };
    const record = parseSession(
      `${JSON.stringify({ type: 'session', version: 1, id: 's', workspace: '/', provider: 'p', model: 'm', started: 't' })}\n${JSON.stringify(line(join(ws.root, 'shot.png')))}\n`,
    )!;
    await loadSessionImages(record, '/nowhere/s.jsonl');
    expect(JSON.stringify(record)).not.toContain(png.toString('base64'));
  });

  it("a cassette's request fingerprint tells one image from another", () => {
    const one = fingerprint([{ role: 'user', content: 'x', images: [image] }]);
    const other = fingerprint([{ role: 'user', content: 'x', images: [{ ...image, data: 'AAAA' }] }]);
    expect(one.images).toHaveLength(1);
    expect(one.images).not.toEqual(other.images);
    expect(fingerprint([{ role: 'user', content: 'x' }]).images).toBeUndefined();
    // A replay with another screenshot says so, not "1 image(s), this run sent 1".
    expect(compare(one, other)).toBe('it was recorded with other image than this run sent');
    expect(compare(one, fingerprint([{ role: 'user', content: 'x' }]))).toBe(
      'it was recorded with 1 image(s), this run sent 0',
    );
    expect(compare(one, one)).toBeUndefined();
  });
});
