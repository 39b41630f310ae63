import * as fs from 'node:fs';
import * as path from 'node:path';
import { environmentFailure, environmentNote } from '../../src/ecosystems/environmentFailure';

const PY = (frames: string, last: string) => `Traceback (most recent call last):
  File "/work/main.py", line 12, in <module>
${frames}${last}
`;

describe('environmentFailure: services', () => {
  it.each([
    [
      'redis-py',
      PY('    r.set("hits", 0)\n  File "/work/.venv/lib/python3.11/site-packages/redis/connection.py", line 707, in connect\n    raise ConnectionError(self._error_message(e))\n', 'redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.'),
      { rule: 'redis-connection', service: 'Redis' },
    ],
    [
      'ioredis',
      '[ioredis] Unhandled error event: Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n',
      { rule: 'redis-connection', service: 'Redis' },
    ],
    [
      'psycopg2',
      PY('    conn = psycopg2.connect(dbname="app", user="app", host="localhost")\n', 'psycopg2.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?'),
      { rule: 'postgres-connection', service: 'PostgreSQL' },
    ],
    [
      'pgjdbc',
      'Exception in thread "main" org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:342)\n',
      { rule: 'postgres-connection', service: 'PostgreSQL' },
    ],
    [
      'pymongo',
      PY('    db.items.insert_one({"a": 1})\n', "pymongo.errors.ServerSelectionTimeoutError: localhost:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription id: 6571, topology_type: Unknown, servers: [<ServerDescription ('localhost', 27017) server_type: Unknown, rtt: None>]>"),
      { rule: 'mongodb-connection', service: 'MongoDB' },
    ],
    [
      'mongoose',
      'MongooseServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017\n    at _handleConnectionErrors (/work/node_modules/mongoose/lib/connection.js:788:11)\n',
      { rule: 'mongodb-connection', service: 'MongoDB' },
    ],
    [
      'mysql-connector',
      PY('    cnx = mysql.connector.connect(user="root", database="shop")\n', "mysql.connector.errors.DatabaseError: 2003 (HY000): Can't connect to MySQL server on 'localhost:3306' (111)"),
      { rule: 'mysql-connection', service: 'MySQL' },
    ],
    [
      'pika',
      PY('    connection = pika.BlockingConnection(pika.ConnectionParameters("localhost"))\n', 'pika.exceptions.AMQPConnectionError'),
      { rule: 'rabbitmq-connection', service: 'RabbitMQ' },
    ],
    [
      'kafka-python',
      PY('    producer = KafkaProducer(bootstrap_servers="localhost:9092")\n', 'kafka.errors.NoBrokersAvailable: NoBrokersAvailable'),
      { rule: 'kafka-connection', service: 'Kafka' },
    ],
  ])('%s', (_what, output, expected) => {
    expect(environmentFailure(output)).toEqual(expect.objectContaining(expected));
  });

  it('recognises a service by its port where the client says nothing more, and names the address', () => {
    const node = `node:internal/process/promises:288
            triggerUncaughtException(err, true /* fromPromise */);
            ^

Error: connect ECONNREFUSED 127.0.0.1:6379
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '127.0.0.1',
  port: 6379
}
`;
    expect(environmentFailure(node)).toEqual({ rule: 'service-port', host: '127.0.0.1:6379', service: 'Redis' });
    expect(environmentFailure('Error: connect ECONNREFUSED ::1:9200\n')).toEqual({ rule: 'service-port', host: '::1:9200', service: 'Elasticsearch' });
  });

  it('leaves a refused connection to a port of no known service alone (the project\'s own server, say)', () => {
    expect(environmentFailure('Error: connect ECONNREFUSED 127.0.0.1:8080\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n')).toBeNull();
  });
});

describe('environmentFailure: hosts', () => {
  it('names the host Node could not resolve', () => {
    const output = `Error: getaddrinfo ENOTFOUND api.openweathermap.org
    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26) {
  errno: -3008,
  code: 'ENOTFOUND',
  syscall: 'getaddrinfo',
  hostname: 'api.openweathermap.org'
}
`;
    expect(environmentFailure(output)).toEqual({ rule: 'dns', host: 'api.openweathermap.org' });
  });

  it('names the host requests could not reach (urllib3 2 and 1)', () => {
    const v2 = PY('    r = requests.get("https://api.github.com/repos/psf/requests")\n', `requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.github.com', port=443): Max retries exceeded with url: /repos/psf/requests (Caused by NameResolutionError("<urllib3.connection.HTTPSConnection object at 0x7f3a1c2b5d10>: Failed to resolve 'api.github.com' ([Errno -3] Temporary failure in name resolution)"))`);
    expect(environmentFailure(v2)).toEqual({ rule: 'dns', host: 'api.github.com' });
    const v1 = PY('    r = requests.get(URL)\n', `requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.coindesk.com', port=443): Max retries exceeded with url: /v1/bpi/currentprice.json (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f1e0b9c2a90>: Failed to establish a new connection: [Errno -2] Name or service not known'))`);
    expect(environmentFailure(v1)).toEqual({ rule: 'connection', host: 'api.coindesk.com' });
  });

  it('names the host Java could not resolve', () => {
    const output = 'Exception in thread "main" java.net.UnknownHostException: api.exchangerate.host\n\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:567)\n\tat com.example.rates.Main.main(Main.java:18)\n';
    expect(environmentFailure(output)).toEqual({ rule: 'dns', host: 'api.exchangerate.host' });
  });

  it('takes the host from a URL where the error names none', () => {
    const output = 'Fetching https://example-weather.net/today\ncurl: (6) Could not resolve host\nsocket.gaierror: [Errno -2] Name or service not known\n';
    expect(environmentFailure(output)).toEqual({ rule: 'dns', host: 'example-weather.net' });
  });

  it('is not the environment when the host is a package index', () => {
    expect(environmentFailure("Error: getaddrinfo EAI_AGAIN registry.npmjs.org\n")).toBeNull();
    expect(environmentFailure(PY('    subprocess.check_call([sys.executable, "-m", "pip", "install", "rich"])\n', "pip._vendor.urllib3.exceptions.MaxRetryError: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/rich/"))).toBeNull();
  });
});

describe('environmentFailure: credentials and downloads', () => {
  it.each([
    ['botocore', PY('    s3.list_buckets()\n', 'botocore.exceptions.NoCredentialsError: Unable to locate credentials'), { rule: 'aws-credentials', service: 'AWS' }],
    ['AWS SDK for JavaScript v3', 'CredentialsProviderError: Could not load credentials from any providers\n    at /work/node_modules/@aws-sdk/credential-provider-node/dist-cjs/index.js:96:11\n', { rule: 'aws-credentials', service: 'AWS' }],
    ['AWS SDK for Java 2', 'Exception in thread "main" software.amazon.awssdk.core.exception.SdkClientException: Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain(credentialsProviders=[SystemPropertyCredentialsProvider(), EnvironmentVariableCredentialsProvider()])\n', { rule: 'aws-credentials', service: 'AWS' }],
    ['google-auth', PY('    client = storage.Client()\n', 'google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc for more information.'), { rule: 'google-credentials', service: 'Google Cloud' }],
    ['azure-identity', PY('    token = credential.get_token("https://storage.azure.com/.default")\n', 'azure.core.exceptions.ClientAuthenticationError: DefaultAzureCredential failed to retrieve a token from the included credentials.'), { rule: 'azure-credentials', service: 'Azure' }],
    ['openai', PY('    client = OpenAI()\n', 'openai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable'), { rule: 'api-key', service: 'OpenAI' }],
    ['transformers from_pretrained', PY('    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")\n', "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like bert-base-uncased is not the path to a directory containing a file named config.json."), { rule: 'model-download', service: 'Hugging Face Hub', host: 'huggingface.co' }],
    ['nltk', PY('    tokens = nltk.word_tokenize(text)\n', "LookupError: \n**********************************************************************\n  Resource punkt not found.\n  Please use the NLTK Downloader to obtain the resource:\n\n  >>> import nltk\n  >>> nltk.download('punkt')"), { rule: 'nltk-data', service: 'NLTK data' }],
    ['keras dataset', PY('    (x_train, y_train), _ = mnist.load_data()\n', 'Exception: URL fetch failure on https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz: None -- [Errno -3] Temporary failure in name resolution'), { rule: 'data-download', host: 'storage.googleapis.com' }],
    ['torchvision weights', 'Downloading: "https://download.pytorch.org/models/resnet18-f37072fd.pth" to /root/.cache/torch/hub/checkpoints/resnet18-f37072fd.pth\n' + PY('    model = models.resnet18(weights="DEFAULT")\n', 'urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>'), { rule: 'url-download', host: 'download.pytorch.org' }],
  ])('%s', (_what, output, expected) => {
    expect(environmentFailure(output)).toEqual(expected);
  });
});

describe('environmentFailure: the AWS SDK for Java 1.x', () => {
  it('without ~/.aws/credentials (a real run: ProfileCredentialsProvider, `profile file cannot be null`) wants AWS credentials', () => {
    const output = fs.readFileSync(path.join(__dirname, '../fixtures/outputs/java-aws-sdk-v1/output.txt'), 'utf8');
    expect(environmentFailure(output)).toEqual({ rule: 'aws-credentials', service: 'AWS' });
  });

  it('through its default chain, whose message names the profile file among the providers', () => {
    const chain = 'com.amazonaws.SdkClientException: Unable to load AWS credentials from any provider in the chain: [EnvironmentVariableCredentialsProvider: Unable to load AWS credentials from environment variables (AWS_ACCESS_KEY_ID (or AWS_ACCESS_KEY) and AWS_SECRET_KEY (or AWS_SECRET_ACCESS_KEY)), com.amazonaws.auth.profile.ProfileCredentialsProvider@6093ac52: profile file cannot be null]\n';
    expect(environmentFailure(chain)).toEqual({ rule: 'aws-credentials', service: 'AWS' });
  });
});

describe('environmentFailure: what it is not', () => {
  it.each([
    ['a missing module', PY('    import redis\n', "ModuleNotFoundError: No module named 'redis'")],
    ['a type error', "TypeError: Cannot read properties of undefined (reading 'split')\n    at countWords (/work/index.js:8:22)\n"],
    ['a missing data file', PY('    df = pd.read_csv("data.csv")\n', "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'")],
    ['a key error', PY('    port = os.environ["PORT"]\n', "KeyError: 'PORT'")],
    ['nothing', ''],
  ])('%s', (_what, output) => {
    expect(environmentFailure(output)).toBeNull();
  });
});

describe('environmentNote', () => {
  it('names the rule, and the service and host where known', () => {
    expect(environmentNote({ rule: 'redis-connection', service: 'Redis' })).toBe('envgap: classed Environment by rule redis-connection (service Redis)');
    expect(environmentNote({ rule: 'service-port', host: '127.0.0.1:6379', service: 'Redis' })).toBe('envgap: classed Environment by rule service-port (service Redis, host 127.0.0.1:6379)');
    expect(environmentNote({ rule: 'nltk-data' })).toBe('envgap: classed Environment by rule nltk-data');
  });
});
