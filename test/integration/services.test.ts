import { useExecutionHarness } from '../helpers/execution';
import type { ProjectFiles } from '../../src/domain/files';
import type { Language } from '../../src/domain/instance';
import type { ContainerLimits } from '../../src/domain/study';

// Real containers through the executeProject activity: a program still running at its time limit is a
// service (a success, its trace up to the stop) when it was seen listening on a TCP port after the
// grace; otherwise a Timeout, silent or busy (docs/ecosystems.md, "Services").
const h = useExecutionHarness();
const LIMITS: Partial<ContainerLimits> = { run_timeout_s: 6, service_grace_s: 2 };
const execute = (id: string, language: Language, files: ProjectFiles, limits: Partial<ContainerLimits> = LIMITS) => h.execute(id, language, files, limits);

const FLASK_LIKE = `import http.server
print("Serving on port 8000", flush=True)
http.server.ThreadingHTTPServer(("0.0.0.0", 8000), http.server.SimpleHTTPRequestHandler).serve_forever()
`;

test('a Python HTTP server still serving at the time limit: success, a service, its run traced up to the stop', async () => {
  const { outcome, log } = await execute('services/python/server/1', 'python', { 'main.py': FLASK_LIKE });
  expect(outcome).toMatchObject({ success: true, failedStep: null, errorClass: null, runKind: 'service' });
  expect(outcome.timeoutKind).toBeUndefined();
  expect(log).toContain('listening on TCP port 8000');
  expect(log).toContain('Serving on port 8000');
  const trace = await h.blobs.getText(outcome.artefacts.runTrace!);
  expect(trace).toMatch(/http\/(__pycache__\/)?server/);
  expect(outcome.layers?.traced).toEqual([]);
}, 180000);

test('an Express-like node server (http.createServer().listen(3000)): success, a service', async () => {
  const server = `require('http').createServer((q, s) => s.end('ok')).listen(3000, () => console.log('Listening on 3000'));\n`;
  const { outcome, log } = await execute('services/javascript/server/1', 'javascript', { 'index.js': server });
  expect(outcome).toMatchObject({ success: true, runKind: 'service' });
  expect(log).toContain('listening on TCP port 3000');
  expect(await h.blobs.getText(outcome.artefacts.runTrace!)).toContain('index.js');
}, 180000);

test('a program that exits 0 is a program', async () => {
  const { outcome } = await execute('services/python/program/1', 'python', { 'main.py': 'print("done")\n' });
  expect(outcome).toMatchObject({ success: true, runKind: 'program' });
}, 180000);

test('a busy loop that never serves: Timeout, busy', async () => {
  const { outcome, log } = await execute('services/python/busy/1', 'python', { 'main.py': 'while True:\n    pass\n' });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Timeout', timeoutKind: 'busy' });
  expect(outcome.runKind).toBeUndefined();
  expect(log).toContain('not serving');
}, 180000);

test('a program that sleeps silently: Timeout, silent', async () => {
  const { outcome } = await execute('services/python/silent/1', 'python', { 'main.py': 'import time\nprint("waiting", flush=True)\ntime.sleep(600)\n' });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Timeout', timeoutKind: 'silent' });
}, 180000);

test('a program that reads stdin gets end of file at once (stdin is not a terminal): input() fails, Runtime, not a Timeout', async () => {
  const { outcome, errorOutput } = await execute('services/python/stdin/1', 'python', { 'main.py': 'name = input("name? ")\nprint(name)\n' });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Runtime' });
  expect(errorOutput).toContain('EOFError');
}, 180000);

test('a Java HTTP server (a Spring Boot-like start-up line, then serving on 8080): success, a service', async () => {
  const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>server</artifactId><version>1</version>
<properties><maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties></project>`;
  const app = `import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
public class App {
  public static void main(String[] args) throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress(8080), 0);
    s.createContext("/", x -> { x.sendResponseHeaders(200, -1); x.close(); });
    s.start();
    System.out.println("Tomcat started on port(s): 8080 (http)");
  }
}
`;
  const { outcome, log } = await execute('services/java/server/1', 'java', { 'pom.xml': pom, 'src/main/java/App.java': app }, { run_timeout_s: 12, service_grace_s: 3 });
  expect(outcome).toMatchObject({ success: true, runKind: 'service' });
  expect(log).toContain('Tomcat started on port(s): 8080');
  expect(log).toContain('listening on TCP port 8080');
}, 400000);
