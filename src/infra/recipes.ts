import { LANGUAGES, type Language } from '../domain/instance';
import { ECOSYSTEMS } from '../ecosystems/registry';

const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * Environment that points every package manager in a container at the image's CA bundle: OpenSSL's
 * SSL_CERT_FILE, then each ecosystem record's `packageManager.caBundleEnv` (in ECOSYSTEMS order, each
 * variable once). Every runtime image sets all of them, so the recipes stay the same for all languages.
 */
export const CA_ENV: string[] = [...new Set(['SSL_CERT_FILE', ...Object.values(ECOSYSTEMS).flatMap((e) => e.packageManager.caBundleEnv)])].map((v) => `${v}=${CA_BUNDLE}`);

/**
 * The configured extra CA certificates (extra-ca/, one certificate a file so that every consumer,
 * Java's keystore included, takes all of them) go into the system store before any package that
 * reads it is installed. apt lists are kept so that apt.txt installs need no `apt-get update`.
 */
export function recipe(base: string, packages: readonly string[], tail: string): string {
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

/** Each language's runtime image: the common recipe with what its ecosystem record adds (src/ecosystems/<language>/ecosystem.ts). */
export const RUNTIME_RECIPES: Record<Language, (base: string) => string> = Object.fromEntries(
  LANGUAGES.map((language) => {
    const { packages, setup } = ECOSYSTEMS[language].image;
    return [language, (base: string) => recipe(base, packages, setup)];
  }),
) as Record<Language, (base: string) => string>;
