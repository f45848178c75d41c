/*
 * `npm run corpus:real`: fetches the real-site corpus named in test/real/corpus.json into
 * .cache/corpus (ignored by git). Debian packages come through `apt-get download` and are
 * unpacked with `dpkg -x` into one tree (never installed: some, like nodejs-doc, would
 * replace the machine's Node); npm packages through `npm pack`. Idempotent: a package
 * whose stamp is present is skipped. Meant for a Debian 12 machine, as root in CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CACHE_DIR,
  COMPLETE_STAMP,
  OWN_PAGES_DIR,
  REPO_ROOT,
  loadManifest,
  resolveInRoot,
  type Manifest,
} from '../test/real/corpus.js';

class CorpusFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CorpusFetchError';
  }
}

const STAMPS = join(CACHE_DIR, '.stamps');
const stampFile = (kind: string, name: string, version: string): string =>
  join(STAMPS, `${kind}_${name.replace(/\//g, '+')}_${version}`);

function run(cmd: string, args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.error)
    throw new CorpusFetchError(
      `cannot run ${cmd}: ${r.error.message} (is this a Debian machine with ${cmd} on PATH?)`,
      { cause: r.error },
    );
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

let listsRefreshed = false;

/** `apt-get download` of the pinned version; the package lists are refreshed once if apt knows nothing of it. */
function aptDownload(name: string, version: string, dir: string): { file: string; version: string } {
  const attempt = (spec: string): { ok: boolean; out: string } => run('apt-get', ['download', '-q', spec], dir);
  let r = attempt(`${name}=${version}`);
  if (!r.ok && !listsRefreshed && /Unable to locate|no installation candidate|Can't select|not found/i.test(r.out)) {
    console.log('  apt knows no such version: running apt-get update once');
    const u = run('apt-get', ['update', '-qq'], dir);
    if (!u.ok) throw new CorpusFetchError(`apt-get update failed (run as root?):\n${u.out}`);
    listsRefreshed = true;
    r = attempt(`${name}=${version}`);
  }
  let got = version;
  if (!r.ok && /Can't select|not found|Version .* was not found/i.test(r.out)) {
    // A stable point release replaces the old version on the mirror; the theme rarely changes within a release.
    console.warn(`  WARNING: ${name}=${version} is gone from the archive; taking the current candidate instead`);
    r = attempt(name);
    got = 'candidate';
  }
  if (!r.ok) throw new CorpusFetchError(`apt-get download ${name}=${version} failed:\n${r.out}`);
  const file = readdirSync(dir).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
  if (!file) throw new CorpusFetchError(`apt-get download ${name} reported success but left no .deb in ${dir}`);
  if (got === 'candidate') got = file.split('_')[1] ?? 'unknown';
  return { file: join(dir, file), version: got };
}

function fetchDebian(pkgs: Manifest['debian']): void {
  const work = mkdtempSync(join(CACHE_DIR, '.debs-'));
  try {
    for (const { name, version } of pkgs) {
      const stamp = stampFile('debian', name, version);
      if (existsSync(stamp)) continue;
      console.log(`debian ${name}=${version}`);
      const deb = aptDownload(name, version, work);
      const x = run('dpkg', ['-x', deb.file, CACHE_DIR], work);
      if (!x.ok) throw new CorpusFetchError(`dpkg -x ${deb.file} failed:\n${x.out}`);
      rmSync(deb.file);
      writeFileSync(stamp, `${deb.version}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function fetchNpm(pkgs: Manifest['npm']): void {
  for (const { name, version } of pkgs) {
    const stamp = stampFile('npm', name, version);
    if (existsSync(stamp)) continue;
    console.log(`npm ${name}@${version}`);
    const work = mkdtempSync(join(CACHE_DIR, '.npm-'));
    try {
      const r = run(
        'npm',
        ['pack', `${name}@${version}`, '--silent', '--ignore-scripts', '--pack-destination', work],
        work,
      );
      const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
      if (!r.ok || !tgz) throw new CorpusFetchError(`npm pack ${name}@${version} failed:\n${r.out}`);
      const dest = join(CACHE_DIR, 'npm', `${name}@${version}`);
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      // The tarball's top folder is usually `package/`, but not always: strip whatever it is.
      execFileSync('tar', ['-xzf', join(work, tgz), '-C', dest, '--strip-components=1', '--no-same-owner']);
      writeFileSync(stamp, `${version}\n`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

/** Every page must resolve inside the cache (our own pages live in the repo). */
async function checkPages(m: Manifest): Promise<void> {
  const missing: string[] = [];
  for (const p of m.pages) {
    if (p.source.startsWith('own:')) {
      const own = p.path.replace(/^\/own\//, '');
      if (!existsSync(join(OWN_PAGES_DIR, own))) missing.push(`${p.id}: test/real/pages/${own}`);
      continue;
    }
    if (!(await resolveInRoot(CACHE_DIR, p.path))) missing.push(`${p.id}: ${p.path}`);
  }
  if (missing.length)
    throw new CorpusFetchError(
      `pages missing after the fetch (is the manifest's path right?):\n  ${missing.join('\n  ')}`,
    );
}

async function main(): Promise<void> {
  const manifest = loadManifest();
  const digest = createHash('sha256')
    .update(readFileSync(join(REPO_ROOT, 'test', 'real', 'corpus.json')))
    .digest('hex');
  if (existsSync(COMPLETE_STAMP) && readFileSync(COMPLETE_STAMP, 'utf8').trim() === digest) {
    console.log(`corpus: ${manifest.pages.length} pages already in ${CACHE_DIR}`);
    return;
  }
  rmSync(COMPLETE_STAMP, { force: true });
  mkdirSync(STAMPS, { recursive: true });
  fetchDebian(manifest.debian);
  fetchNpm(manifest.npm);
  await checkPages(manifest);
  writeFileSync(COMPLETE_STAMP, `${digest}\n`);
  console.log(`corpus: ${manifest.pages.length} pages ready in ${CACHE_DIR}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  process.exit(1);
});
