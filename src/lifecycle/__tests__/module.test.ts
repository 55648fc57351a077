import { describe, expect, it } from 'vitest';
import { Lifecycle, type Module } from '../module.ts';

function recorded(log: string[], name: string, failsToStart = false): Module {
  return {
    name,
    async start() {
      if (failsToStart) throw new Error(`${name} failed`);
      log.push(`start ${name}`);
    },
    async stop() {
      log.push(`stop ${name}`);
    },
  };
}

describe('Lifecycle', () => {
  it('starts modules in order and stops them in reverse, once, however often it is told to stop', async () => {
    const log: string[] = [];
    const lifecycle = new Lifecycle();
    await lifecycle.start(recorded(log, 'database'), recorded(log, 'bus'));
    await lifecycle.start(recorded(log, 'consumer'));
    await Promise.all([lifecycle.stop(), lifecycle.stop()]);
    await lifecycle.stop();
    expect(log).toEqual(['start database', 'start bus', 'start consumer', 'stop consumer', 'stop bus', 'stop database']);
  });

  it('stops what it started when a module fails to start, and reports the failure', async () => {
    const log: string[] = [];
    const lifecycle = new Lifecycle();
    await expect(lifecycle.start(recorded(log, 'database'), recorded(log, 'bus', true), recorded(log, 'consumer'))).rejects.toThrow(
      'bus failed',
    );
    expect(log).toEqual(['start database', 'stop database']);
  });
});
