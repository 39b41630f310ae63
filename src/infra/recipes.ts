import type { Language } from '../domain/instance';

/** Environment that points every package manager in a container at the image's CA bundle. */
export const CA_ENV = [
  'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt',
  'PIP_CERT=/etc/ssl/certs/ca-certificates.crt',
  'REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt',
  'CURL_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt',
  'GIT_SSL_CAINFO=/etc/ssl/certs/ca-certificates.crt',
  'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
  'npm_config_cafile=/etc/ssl/certs/ca-certificates.crt',
];

/**
 * The configured extra CA certificates (extra-ca/, one certificate a file so that every consumer,
 * Java's keystore included, takes all of them) go into the system store before any package that
 * reads it is installed. apt lists are kept so that apt.txt installs need no `apt-get update`.
 */
function recipe(base: string, packages: string[], tail: string): string {
  return `FROM ${base}
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
COPY extra-ca/ /usr/local/share/ca-certificates/envgap/
RUN apt-get update -q \\
 && apt-get install -y -q --no-install-recommends ca-certificates strace ${packages.join(' ')} \\
 && update-ca-certificates
${tail}ENV ${CA_ENV.join(' \\\n    ')}
WORKDIR /work
`;
}

export const RUNTIME_RECIPES: Record<Language, (base: string) => string> = {
  python: (base) =>
    recipe(base, ['python3', 'python3-venv'], `RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1
`),
  java: (base) =>
    recipe(base, ['openjdk-17-jdk-headless', 'maven', 'ca-certificates-java'], `RUN update-ca-certificates -f >/dev/null
ENV MAVEN_OPTS="-Djavax.net.ssl.trustStore=/etc/ssl/certs/java/cacerts -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
`),
  javascript: (base) =>
    recipe(base, ['nodejs', 'npm'], `ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
`),
  cpp: (base) => recipe(base, ['g++', 'cmake', 'make', 'pkg-config', 'git', 'file'], ''),
};
