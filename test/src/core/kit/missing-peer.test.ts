/* eslint-disable @typescript-eslint/no-require-imports -- peer loaders are literal requires, as in the entry points */
import { GolemError, ConfigError } from 'golem';
import { checkPeers } from '../../../../src/core/kit/missing-peer';

/** A loader for a package that is not installed: a real `require`, which throws. */
const absent = (name: string) => (): unknown => require(name) as unknown;

describe('checkPeers', () => {
  test('installed peers load and pass', () => {
    const loaded: string[] = [];
    checkPeers('golem/example', {
      typescript: () => loaded.push('typescript'),
      'fast-check': () => loaded.push('fast-check'),
    });
    expect(loaded).toEqual(['typescript', 'fast-check']);
  });

  test('a package that is not installed throws a missing-peer ConfigError naming the install command', () => {
    let thrown: unknown;
    try {
      checkPeers('golem/example', {
        typescript: () => require('typescript') as unknown,
        'golem-test-not-installed-a': absent('golem-test-not-installed-a'),
      });
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.is(thrown, 'peers')).toBe(true);
    expect(GolemError.isGolemError(thrown)).toBe(true);
    const error = thrown as ConfigError;
    expect([error.kind, error.component, error.reason]).toEqual([
      'ConfigError',
      'peers',
      'missing-peer',
    ]);
    expect(error.entryPoint).toBe('golem/example');
    expect(error.packages).toEqual(['golem-test-not-installed-a']);
    expect(error.command).toBe('npm install golem-test-not-installed-a');
    expect(error.message).toBe(
      'golem/example needs the package golem-test-not-installed-a, a peer dependency of golem ' +
        'that is not installed: run `npm install golem-test-not-installed-a`',
    );
  });

  test('every missing package is named in one command, in the order given', () => {
    expect(() => {
      checkPeers('golem/example', {
        'golem-test-missing-b': absent('golem-test-missing-b'),
        typescript: () => require('typescript') as unknown,
        'golem-test-missing-a': absent('golem-test-missing-a'),
      });
    }).toThrow(
      'golem/example needs the packages golem-test-missing-b, golem-test-missing-a, peer ' +
        'dependencies of golem that are not installed: run `npm install golem-test-missing-b golem-test-missing-a`',
    );
  });

  test('a load failure other than "not installed" propagates unchanged', () => {
    const failure = new SyntaxError('Unexpected token in the peer');
    expect(() => {
      checkPeers('golem/example', {
        x: () => {
          throw failure;
        },
      });
    }).toThrow(failure);
  });

  test('a peer whose own dependency is missing is not reported as the missing peer', () => {
    expect(() => {
      checkPeers('golem/example', {
        'class-validator': absent('golem-test-transitive-dependency'),
      });
    }).toThrow("Cannot find module 'golem-test-transitive-dependency'");
  });
});
