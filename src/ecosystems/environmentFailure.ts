import type { EnvironmentMatch } from '../domain/instance';
/**
 * Failures of a program's run that need what the machine cannot give: a service (Redis, PostgreSQL, ...)
 * nobody started, a host outside the package indexes (the run has no network), cloud credentials or
 * an API key, a model or data set to download. They are never the agent's: the class is Environment,
 * and the metrics leave such instances out of the success rates by default (docs/metrics.md).
 *
 * A heuristic on the run's output, so each match names the rule that fired, and the host or the service
 * the error names where it names one. Pure: every ecosystem's run-step classification asks it first.
 */
export type EnvironmentFailure = EnvironmentMatch;

/** Services by their usual port. */
const SERVICE_PORTS: Record<string, string> = {
  '6379': 'Redis',
  '5432': 'PostgreSQL',
  '27017': 'MongoDB',
  '3306': 'MySQL',
  '5672': 'RabbitMQ',
  '9092': 'Kafka',
  '9200': 'Elasticsearch',
  '11211': 'Memcached',
};

/** The service that usually listens on a TCP port, if any. */
export function serviceOfPort(port: number): string | undefined {
  return SERVICE_PORTS[String(port)];
}

/** Hosts of the package indexes: a run reaching for them is no environment the machine lacks. */
const INDEX_HOSTS = new Set([
  'pypi.org', 'files.pythonhosted.org', 'pypi.python.org', 'registry.npmjs.org', 'registry.yarnpkg.com',
  'repo.maven.apache.org', 'repo1.maven.org', 'deb.debian.org', 'security.debian.org', 'archive.ubuntu.com',
]);

interface Rule {
  rule: string;
  pattern: RegExp;
  service?: string;
  /** The host: a capture of the pattern by default, else the first URL's host in the output, if any. */
  host?: 'capture' | 'url';
}

// Cloud credentials and API keys the run was not given.
const CREDENTIALS: Rule[] = [
  // `profile file cannot be null`: the AWS SDK for Java 1.x's ProfileCredentialsProvider where there is no ~/.aws/credentials.
  { rule: 'aws-credentials', service: 'AWS', pattern: /NoCredentialsError|Unable to locate credentials|Could not load credentials from any providers|CredentialsError: Missing credentials in config|Unable to load (?:AWS )?credentials from any (?:of the )?providers? in the chain|The security token included in the request is invalid|InvalidClientTokenId|profile file cannot be null/ },
  { rule: 'google-credentials', service: 'Google Cloud', pattern: /DefaultCredentialsError|Your default credentials were not found|Could not automatically determine credentials|Could not load the default credentials|GOOGLE_APPLICATION_CREDENTIALS|The Application Default Credentials are not available/ },
  { rule: 'azure-credentials', service: 'Azure', pattern: /DefaultAzureCredential failed to retrieve a token|CredentialUnavailableError|EnvironmentCredential authentication unavailable|AZURE_CLIENT_ID|AZURE_STORAGE_CONNECTION_STRING/ },
  { rule: 'api-key', service: 'OpenAI', pattern: /OPENAI_API_KEY|Incorrect API key provided|The api_key client option must be set/ },
  { rule: 'api-key', service: 'Anthropic', pattern: /ANTHROPIC_API_KEY|Could not resolve authentication method\. Expected either apiKey or authToken/ },
];

// Models and data sets to download.
const DOWNLOADS: Rule[] = [
  { rule: 'model-download', service: 'Hugging Face Hub', host: 'url', pattern: /We couldn't connect to 'https:\/\/huggingface\.co'|LocalEntryNotFoundError|OfflineModeIsEnabled|host='(?:cdn-lfs\.)?huggingface\.co'|Can't load (?:tokenizer|the model|config|feature extractor|image processor) for '[^']+'|huggingface_hub\.errors?\.\w*(?:Connection|NotFound)Error/ },
  { rule: 'nltk-data', service: 'NLTK data', pattern: /Resource \S+ not found\.\s+Please use the NLTK Downloader/ },
  { rule: 'data-download', host: 'capture', pattern: /URL fetch failure on https?:\/\/([\w.-]+)/ },
  { rule: 'url-download', host: 'url', pattern: /urllib\.error\.URLError: <urlopen error/ },
];

// Services nobody started, by their client's words.
const SERVICES: Rule[] = [
  { rule: 'redis-connection', service: 'Redis', pattern: /redis\.exceptions\.ConnectionError|Could not connect to Redis|JedisConnectionException|RedisConnectionException|\[ioredis\] Unhandled error event/ },
  { rule: 'postgres-connection', service: 'PostgreSQL', pattern: /(?:psycopg2?|asyncpg|sqlalchemy)\S*\.?OperationalError\)?:? (?:connection to server|could not connect to server)|PSQLException: Connection to \S+ refused|is the server running on host .{0,80}5432/is },
  { rule: 'mongodb-connection', service: 'MongoDB', pattern: /ServerSelectionTimeoutError|Mongo(?:ose)?ServerSelectionError|MongoTimeoutException|MongoSocketOpenException/ },
  { rule: 'mysql-connection', service: 'MySQL', pattern: /Can't connect to MySQL server|CommunicationsException: Communications link failure/ },
  { rule: 'rabbitmq-connection', service: 'RabbitMQ', pattern: /AMQPConnectionError|amqp\.exceptions|ACCESS_REFUSED - Login was refused/ },
  { rule: 'kafka-connection', service: 'Kafka', pattern: /NoBrokersAvailable|KafkaJSConnectionError|KafkaJSNumberOfRetriesExceeded|Connection to node -?\d+ \([^)]*\) could not be established/ },
  { rule: 'elasticsearch-connection', service: 'Elasticsearch', pattern: /elasticsearch\.exceptions\.ConnectionError|elastic_transport\.ConnectionError|ConnectionError: connect ECONNREFUSED \S+:9200/ },
];

const HOST_PORT = /(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[?::1\]?|[\w-]+(?:\.[\w-]+)*)[:,] ?(?:port )?(\d{2,5})\b/g;
const CONNECTION_FAILED = /refused|ECONNREFUSED|Errno 111|Connection reset|timed out|connect(?:ing)? to|failed to connect/i;

// A host the run could not resolve or reach.
const HOSTS: Rule[] = [
  { rule: 'dns', host: 'capture', pattern: /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([\w.-]+)/ },
  { rule: 'dns', host: 'capture', pattern: /Failed to resolve '([\w.-]+)'/ },
  { rule: 'dns', host: 'capture', pattern: /UnknownHostException: ([\w.-]+)/ },
  { rule: 'dns', host: 'capture', pattern: /Could not resolve host: ([\w.-]+)/ },
  { rule: 'connection', host: 'capture', pattern: /host='([\w.-]+)', port=\d+\): Max retries exceeded/ },
  { rule: 'connection', host: 'capture', pattern: /Cannot connect to host ([\w.-]+):\d+/ },
  { rule: 'dns', host: 'url', pattern: /Name or service not known|Temporary failure in name resolution|nodename nor servname provided|No address associated with hostname|Couldn't resolve host name/ },
  { rule: 'connection', host: 'url', pattern: /Failed to establish a new connection|Network is unreachable|ENETUNREACH/ },
];

/** The rule that explains a failed run by what the machine cannot give, or null. */
export function environmentFailure(output: string): EnvironmentFailure | null {
  return firstMatch(CREDENTIALS, output) ?? firstMatch(DOWNLOADS, output) ?? firstMatch(SERVICES, output) ?? servicePort(output) ?? firstMatch(HOSTS, output);
}

/** The line handed to Repair and kept in the log. */
export function environmentNote(hit: EnvironmentFailure): string {
  const named = [hit.service && `service ${hit.service}`, hit.host && `host ${hit.host}`].filter(Boolean).join(', ');
  return `envgap: classed Environment by rule ${hit.rule}${named ? ` (${named})` : ''}`;
}

function firstMatch(rules: Rule[], output: string): EnvironmentFailure | null {
  for (const r of rules) {
    const match = r.pattern.exec(output);
    if (!match) continue;
    const host = r.host === 'capture' ? match[1] : r.host === 'url' ? firstUrlHost(output) : undefined;
    // A package index the run reached for (a pip install at run time, say) is not what this class means.
    if (r.service === undefined && host !== undefined && INDEX_HOSTS.has(host.toLowerCase())) return null;
    return { rule: r.rule, ...(host !== undefined ? { host } : {}), ...(r.service !== undefined ? { service: r.service } : {}) };
  }
  return null;
}

/** A connection to a service's usual port that failed: `ECONNREFUSED 127.0.0.1:6379`, `localhost:27017: [Errno 111]`. */
function servicePort(output: string): EnvironmentFailure | null {
  for (const line of output.split('\n')) {
    if (!CONNECTION_FAILED.test(line)) continue;
    for (const match of line.matchAll(HOST_PORT)) {
      const service = SERVICE_PORTS[match[1]];
      if (service !== undefined) return { rule: 'service-port', host: match[0].replace(/[, ]+(?:port )?/, ':'), service };
    }
  }
  return null;
}

function firstUrlHost(output: string): string | undefined {
  return /\bhttps?:\/\/([\w-]+(?:\.[\w-]+)+)/.exec(output)?.[1];
}
