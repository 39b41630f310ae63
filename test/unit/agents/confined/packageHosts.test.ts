import { connectTarget, hostAllowed, mirrorHosts, packageAllowList, PACKAGE_INDEX_HOSTS } from '../../../../src/agents/confined/packageHosts';

describe('the hosts an agent may reach', () => {
  const list = packageAllowList({});

  it('are the package indexes of the four ecosystems, on the web ports', () => {
    for (const host of ['pypi.org', 'files.pythonhosted.org', 'registry.npmjs.org', 'repo.maven.apache.org', 'deb.debian.org']) {
      expect(hostAllowed(list, host, 443)).toBe(true);
    }
    expect(list.ports).toEqual([80, 443]);
    expect(list.hosts).toEqual(expect.arrayContaining([...PACKAGE_INDEX_HOSTS]));
  });

  it('are matched by the whole name, case and a trailing dot aside', () => {
    expect(hostAllowed(list, 'PyPI.org.', 443)).toBe(true);
    expect(hostAllowed(list, 'evil-pypi.org', 443)).toBe(false);
    expect(hostAllowed(list, 'pypi.org.evil.example', 443)).toBe(false);
    expect(hostAllowed(list, 'sub.pypi.org', 443)).toBe(false);
    expect(hostAllowed(list, '', 443)).toBe(false);
  });

  it('never include the model vendors, metadata addresses or other ports', () => {
    for (const host of ['api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', '169.254.169.254', '127.0.0.1', 'example.com']) {
      expect(hostAllowed(list, host, 443)).toBe(false);
    }
    expect(hostAllowed(list, 'pypi.org', 22)).toBe(false);
  });

  it('take in the mirrors the settings name, with their ports', () => {
    const s = { pipIndexUrl: 'http://pypi.mirror.internal:3141/root/pypi/+simple/', npmRegistry: 'https://NPM.corp.example/', mavenMirror: 'not a url' };
    expect(mirrorHosts(s)).toEqual(['pypi.mirror.internal', 'npm.corp.example']);
    const mirrored = packageAllowList(s);
    expect(hostAllowed(mirrored, 'pypi.mirror.internal', 3141)).toBe(true);
    expect(hostAllowed(mirrored, 'npm.corp.example', 443)).toBe(true);
    expect(mirrored.ports).toEqual([80, 443, 3141]);
  });

  it('take a domain entry as every host under it, never the bare domain', () => {
    const l = packageAllowList({}, ['.pkg.example']);
    expect(hostAllowed(l, 'a.pkg.example', 443)).toBe(true);
    expect(hostAllowed(l, 'pkg.example', 443)).toBe(false);
    expect(hostAllowed(l, 'xpkg.example', 443)).toBe(false);
  });
});

describe("a CONNECT request's target", () => {
  it('is host:port, IPv6 in brackets', () => {
    expect(connectTarget('pypi.org:443')).toEqual({ host: 'pypi.org', port: 443 });
    expect(connectTarget('[::1]:8080')).toEqual({ host: '[::1]', port: 8080 });
  });
  it('is refused when malformed', () => {
    for (const bad of ['pypi.org', 'pypi.org:0', 'pypi.org:70000', 'http://pypi.org:443', 'a b:443', '']) expect(connectTarget(bad)).toBeNull();
  });
});
