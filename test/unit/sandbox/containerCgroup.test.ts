import { inContainerCgroup } from '../../../src/sandbox/processes';

const ID = 'd4720eb0b105f19465d7e003b7ab44f5cccee1449d6a85f2a266cafbf6d83b4e';
const OTHER = '76f39578eadf63e81bf6626a28d07192fdea3986533bee5291f85174e27a8715';

describe('inContainerCgroup: whether /proc/PID/cgroup puts a process in the container', () => {
  it('cgroup v1 with the cgroupfs driver (this machine)', () => {
    const text = `9:name=systemd:/docker/${ID}\n8:pids:/docker/${ID}\n6:freezer:/docker/${ID}\n0::/docker/${ID}\n`;
    expect(inContainerCgroup(text, ID)).toBe(true);
    expect(inContainerCgroup(text, OTHER)).toBe(false);
  });

  it('cgroup v2 with the systemd driver', () => {
    expect(inContainerCgroup(`0::/system.slice/docker-${ID}.scope\n`, ID)).toBe(true);
  });

  it('a host process, or a reused pid elsewhere, is not', () => {
    expect(inContainerCgroup('0::/user.slice/user-0.slice/session-1.scope\n', ID)).toBe(false);
    expect(inContainerCgroup(`0::/docker/${OTHER}\n`, ID)).toBe(false);
    expect(inContainerCgroup('', ID)).toBe(false);
  });
});
