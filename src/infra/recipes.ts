import type { Language } from '../domain/instance';

/** Environment that points every package manager in a container at the image's CA bundle. */
export const CA_ENV = [
  'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt',
  'PIP_CERT=/etc/ssl/certs/ca-certificates.crt',
  'REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt',
  'CURL_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt',
  'GIT_SSL_CAINFO=/etc/ssl/certs/ca-certificates.crt',
  'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
];

/**
 * Runtime image recipes, layered on the base image. `extra-ca.crt` (the configured CA bundle) is
 * installed into the system store so that HTTPS through an intercepting proxy works.
 */
export const RUNTIME_RECIPES: Partial<Record<Language, (base: string) => string>> = {
  python: (base) => `FROM ${base}
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
COPY extra-ca.crt /usr/local/share/ca-certificates/envgap-extra.crt
RUN apt-get update -q \\
 && apt-get install -y -q --no-install-recommends ca-certificates python3 python3-venv strace \\
 && update-ca-certificates \\
 && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    ${CA_ENV.join(' \\\n    ')} \\
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1
WORKDIR /work
`,
};
