// Redaction: every secret shape, and the values of secret-looking variables, replaced before anything is written.
import { describe, expect, test } from 'vitest';
import { configSecrets } from '../../src/config/secrets.js';
import { createRedactor, redactDeep, redactJsonText } from '../../src/safety/redact.js';

const redact = createRedactor({});

describe('redact', () => {
  test.each([
    ['echo sk-live-4f9a8b7c6d5e4f3a2b1c', 'echo sk-[REDACTED]'],
    ['OPENAI=sk-proj-AbCdEfGhIjKlMnOp', 'OPENAI=sk-[REDACTED]'],
    [
      'git clone https://ghp_0123456789abcdefABCDEF0123456789abcd@github.com/a/b',
      'git clone https://ghp_[REDACTED]@github.com/a/b',
    ],
    ['gh auth login --with-token gho_0123456789abcdefABCDEF', 'gh auth login --with-token gho_[REDACTED]'],
    ['export T=github_pat_11ABCDEFG0123456789_abcdefghijkl', 'export T=github_pat_[REDACTED]'],
    ['curl -d token=xoxb-1234567890-abcdefghij slack', 'curl -d token=xoxb-[REDACTED] slack'],
    ['slack xoxp-1234-5678-abcdefgh', 'slack xoxp-[REDACTED]'],
    [
      'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE',
      'aws configure set aws_access_key_id AKIA[REDACTED]',
    ],
    [
      'curl "https://x.googleapis.com/v1?key=AIzaSyA1234567890abcdefghijklmnopqrs"',
      'curl "https://x.googleapis.com/v1?key=AIza[REDACTED]"',
    ],
    [
      'curl -H "X: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"',
      'curl -H "X: [REDACTED]"',
    ],
    [
      'curl -H "Authorization: Bearer abc.def-ghi" https://api',
      'curl -H "Authorization: [REDACTED]" https://api',
    ],
    ["curl -H 'x-api-key: 12345' https://api", "curl -H 'x-api-key: [REDACTED]' https://api"],
    ['mysql -uroot -phunter2 db', 'mysql -uroot -p[REDACTED] db'],
    ['mysqldump -p"s3cret pass" db && mkdir -pv out', 'mysqldump -p[REDACTED] db && mkdir -pv out'],
    ['psql --password=hunter2 db', 'psql --password=[REDACTED] db'],
    ['docker login --password hunter2 reg', 'docker login --password [REDACTED] reg'],
    ['docker login --password-stdin reg', 'docker login --password-stdin reg'],
    [
      'git push https://alice:hunter2@example.com/r.git',
      'git push https://alice:[REDACTED]@example.com/r.git',
    ],
    ['DB_PASSWORD=hunter2 npm start', 'DB_PASSWORD=[REDACTED] npm start'],
    [
      'curl "https://x/cb?access_token=0123456789abcdef0123&x=1"',
      'curl "https://x/cb?access_token=[REDACTED]&x=1"',
    ],
    ['./run --api-key 0123456789abcdef0123456789abcdef', './run --api-key [REDACTED]'],
    ['deploy secret=abc', 'deploy secret=[REDACTED]'],
    ['DB_PASS=dbsecret77 MYSQL_PWD=pw2 npm start', 'DB_PASS=[REDACTED] MYSQL_PWD=[REDACTED] npm start'],
    ['export SMTP_PASSPHRASE=open-sesame', 'export SMTP_PASSPHRASE=[REDACTED]'],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  test.each([
    'git status',
    'npm test && npm run build',
    'mkdir -p src/a && cp -pr a b && gcc -pthread x.c',
    'sort --key=2 file.txt',
    'grep -rn "token" src',
    'ssh -p 2222 host',
    'git log --format=%H -n 5',
    'echo 0123456789abcdef0123456789abcdef0123456789',
    'cd "$OLDPWD" && echo PWD=/work',
    'env_passthrough: [DATABASE_URL]',
  ])('leaves %j as it is', (input) => {
    expect(redact(input)).toBe(input);
  });

  test('replaces the values of secret-looking variables in the environment, wherever they appear', () => {
    const withEnv = createRedactor({
      MY_SERVICE_TOKEN: 'plainvalue123',
      DEPLOY_KEY: 'short-but-8',
      DB_PASSWORD: 'correct horse battery',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      GIT_CREDENTIAL: 'credential-value',
      SMTP_PASS: 'mailpass-123',
      OLDPWD: '/home/olddir-9',
      KEEL_KEYRING: 'off',
      HOME: '/home/plainvalue123',
      PATH: '/usr/bin',
    });
    expect(withEnv('echo plainvalue123 > x; curl -u me:short-but-8 host')).toBe(
      'echo [REDACTED] > x; curl -u me:[REDACTED] host',
    );
    expect(withEnv('echo "correct horse battery" | tee log')).toBe('echo "[REDACTED]" | tee log');
    expect(withEnv('aws s3 ls --secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe(
      'aws s3 ls --secret [REDACTED]',
    );
    expect(withEnv('git credential-value fill')).toBe('git [REDACTED] fill');
    expect(withEnv('echo mailpass-123; cd /home/olddir-9')).toBe('echo [REDACTED]; cd /home/olddir-9');
    // Too short to replace everywhere (it would eat ordinary words), and names that are not secrets.
    expect(withEnv('set -o off; cd /usr/bin')).toBe('set -o off; cd /usr/bin');
  });

  test('redacts a whole private key block, across lines', () => {
    expect(
      redact('echo "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz\n-----END OPENSSH PRIVATE KEY-----"'),
    ).toBe('echo "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]"');
  });
});

describe('config secrets and structured values', () => {
  test("replaces the config's api_key and other secret-named values wherever they appear", () => {
    const config = {
      provider: { 'openai-compatible': { api_key: 'cfg-plain-value-1', model: 'gpt-4o-mini' } },
      mcp: { servers: { gh: { env: { GITHUB_TOKEN: 'mcp-plain-value-2' }, args: ['--port', '8080'] } } },
      agent: { conversation: { max_tokens: 100000 } },
    };
    expect(configSecrets(config)).toEqual(['cfg-plain-value-1', 'mcp-plain-value-2']);
    const withConfig = createRedactor({}, configSecrets(config));
    expect(withConfig('key cfg-plain-value-1 and mcp-plain-value-2, model gpt-4o-mini')).toBe(
      'key [REDACTED] and [REDACTED], model gpt-4o-mini',
    );
  });

  test('redacts every string of a value and keeps a JSON text parseable', () => {
    const withEnv = createRedactor({ SOME_TOKEN: 'abc"def\\ghi' });
    const input = JSON.stringify({ content: 'x abc"def\\ghi y', n: 3 });
    expect(JSON.parse(redactJsonText(input, withEnv))).toEqual({ content: 'x [REDACTED] y', n: 3 });
    expect(redactDeep({ a: ['abc"def\\ghi'], b: 1 }, withEnv)).toEqual({ a: ['[REDACTED]'], b: 1 });
  });
});
