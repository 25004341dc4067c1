// LanguageServices.view: another run on the same workspace shares the started services, keeps its own changed
// files, and leaves closing them to the owner.
import { expect, test } from 'vitest';
import { type LanguageService, LanguageServices } from '../../../src/code/language/service.js';

function fakeFactory() {
  const log = { starts: 0, closes: 0, changed: [] as string[][] };
  const service = {
    id: 'fake',
    changed: (paths: string[]) => log.changed.push(paths),
    close: async () => {
      log.closes++;
    },
  } as unknown as LanguageService;
  const factory = {
    id: 'fake',
    handles: (f: string) => f.endsWith('.x'),
    start: async () => {
      log.starts++;
      return service;
    },
  };
  return { log, service, factory };
}

test('a view shares the started service, records its own changed files, and its close leaves it running', async () => {
  const { log, service, factory } = fakeFactory();
  const owner = new LanguageServices('/ws', async () => [factory]);
  const first = owner.view();
  expect(await first.forFile('a.x')).toBe(service);
  first.changed(['a.x']);
  await first.close();
  expect(log.closes).toBe(0);

  const second = owner.view();
  expect(await second.forFile('b.x')).toBe(service);
  expect(log.starts).toBe(1);
  expect(second.changedFiles()).toEqual([]);
  expect(first.changedFiles()).toEqual(['a.x']);
  owner.changed(['b.x']);
  await Promise.resolve();
  expect(log.changed).toEqual([['a.x'], ['b.x']]);

  await owner.close();
  expect(log.closes).toBe(1);
});
