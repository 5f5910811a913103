#!/usr/bin/env python3
"""How many true findings `klint --confirm` confirms without a manifest (issue 17's measure).

Two sets of true findings, each linted with `--confirm --format json` and no klint.toml:
  realbugs   the real fixed bugs of a realbugs set (its bugs.json and score.py, given by
             --realbugs DIR, with MIRRORS set as for its scorer): in the parent tree, the findings of
             the bug class's rules within two lines of a buggy line, in the file that held the bug;
  pitfalls   the kernels of bench/pitfalls/, klint's own small kernels that each reproduce a
             documented pitfall: every finding of the rules a kernel names in its
             `// pitfall: RULE ...` lines.
Prints one line per finding (set, file:line, rule, verdict, summary), the verdicts per rule, and the
confirmation rate; with --json FILE also writes them. Nothing of third-party code is kept.

Usage:  bench/confirm_rate.py KLINT [--realbugs DIR] [--pitfalls DIR] [--json FILE] [-j N] [--trees DIR]
"""
import argparse, collections, concurrent.futures, importlib.util, json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def confirm(klint, args, cwd=None):
    """Runs klint --confirm on one translation unit; returns (findings, seconds)."""
    env = dict(os.environ, NO_COLOR='1', XDG_RUNTIME_DIR=os.environ.get('XDG_RUNTIME_DIR', tempfile.gettempdir()))
    start = time.monotonic()
    run = subprocess.run([klint, '--confirm', '--no-cache', '-j', '1', '--format', 'json'] + args,
                         capture_output=True, text=True, timeout=1800, env=env, cwd=cwd)
    seconds = time.monotonic() - start
    try:
        return json.loads(run.stdout)['findings'], seconds
    except (ValueError, KeyError):
        return [{'rule': 'klint-failed', 'location': {'file': '', 'line': 0},
                 'confirmation': {'status': 'failed', 'summary': run.stderr.strip()[:200]}}], seconds


def realbugs_findings(klint, realbugs_dir, trees=None):
    spec = importlib.util.spec_from_file_location('realbugs_score', os.path.join(realbugs_dir, 'score.py'))
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    cases = json.load(open(os.path.join(realbugs_dir, 'bugs.json')))
    mirrors = os.environ.get('MIRRORS', '')
    out = []
    for case in cases:
        if case['parent_compiles'] is not True or case.get('needs'):
            continue
        gitdir = os.path.join(mirrors, case['repo'].replace('/', '+'), 'repo')
        kept = os.path.join(trees, case['id']) if trees else None
        if not os.path.isdir(gitdir) and not (kept and os.path.isdir(kept)):
            print(f"{case['id']}: fetch {case['repo']} first", file=sys.stderr)
            continue
        tmp = kept or tempfile.mkdtemp(prefix='klint-confirm-rate-')
        try:
            if not os.path.isdir(os.path.join(tmp, 'parent')):
                score.extract(gitdir, case['parent_sha'], case['archive_dir'], os.path.join(tmp, 'parent'))
            root = os.path.join(tmp, 'parent')
            args = [f'-D{d}' for d in case['defines']]
            args += [f'-I{os.path.join(root, d)}' for d in case.get('include_dirs', [])]
            if case.get('target_env'):
                args.append(f"--target-env={case['target_env']}")
            if case.get('entry'):
                args.append(f"--entry={case['entry']}")
            args.append(os.path.join(root, case['compile_file']))
            findings, seconds = confirm(klint, args)
        finally:
            if not kept:
                shutil.rmtree(tmp, ignore_errors=True)
        rules = re.compile(score.RULES[case['bug_class']])
        bug_file = os.path.basename(case['bug_file'])
        for f in findings:
            loc = f['location']
            if (rules.search(f['rule']) and os.path.basename(loc['file']) == bug_file
                    and any(abs(loc['line'] - l) <= 2 for l in case['buggy_lines'])):
                out.append(('realbugs', f"{case['id']} {bug_file}:{loc['line']}", f, seconds))
    return out


def pitfall_findings(klint, pitfalls_dir, jobs):
    kernels = sorted(os.path.join(pitfalls_dir, n) for n in os.listdir(pitfalls_dir)
                     if n.endswith(('.comp', '.hlsl')))

    def one(path):
        text = open(path).read()
        rules = set(re.findall(r'//\s*pitfall:\s*([a-z0-9-]+)', text))
        findings, seconds = confirm(klint, [os.path.basename(path)], cwd=pitfalls_dir)
        return [('pitfalls', f"{os.path.basename(path)}:{f['location']['line']}", f, seconds)
                for f in findings if f['rule'] in rules or f['rule'] == 'klint-failed']

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return [row for rows in pool.map(one, kernels) for row in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('klint')
    parser.add_argument('--realbugs', help='folder with bugs.json and score.py (needs MIRRORS)')
    parser.add_argument('--pitfalls', default=os.path.join(HERE, 'pitfalls'))
    parser.add_argument('--json', help='write every finding with its verdict here')
    parser.add_argument('-j', type=int, default=2)
    parser.add_argument('--trees', help='keep each case\'s parent tree in TREES/ID, and take it from there when '
                        'present (for a machine without the mirrors)')
    a = parser.parse_args()
    klint = os.path.abspath(a.klint)
    rows = pitfall_findings(klint, a.pitfalls, a.j)
    if a.realbugs:
        rows += realbugs_findings(klint, a.realbugs, a.trees and os.path.abspath(a.trees))
    per_rule = collections.defaultdict(collections.Counter)
    for kind, where, f, _ in rows:
        c = f.get('confirmation') or {'status': 'none', 'summary': ''}
        per_rule[f['rule']][c['status']] += 1
        print(f"{kind:9} {where:50} {f['rule']:36} {c['status']:15} {c['summary'][:110]}")
    print()
    statuses = ['confirmed', 'not reproduced', 'inconclusive', 'not runnable', 'no run', 'none']
    print(f"{'rule':40}" + ''.join(f'{s:>16}' for s in statuses))
    total = collections.Counter()
    for rule in sorted(per_rule):
        print(f'{rule:40}' + ''.join(f'{per_rule[rule][s]:>16}' for s in statuses))
        total.update(per_rule[rule])
    print(f"{'all':40}" + ''.join(f'{total[s]:>16}' for s in statuses))
    n = sum(total.values())
    times = sorted({(kind, where.split(':')[0]): t for kind, where, _, t in rows}.values())
    if n:
        print(f"confirmed {total['confirmed']} of {n} true findings ({100 * total['confirmed'] / n:.0f}%)")
    if times:
        print(f"seconds per translation unit (lint and confirm): median {times[len(times) // 2]:.1f}, worst {times[-1]:.1f}")
    if a.json:
        json.dump([{'set': k, 'where': w, 'rule': f['rule'], 'confirmation': f.get('confirmation'), 'seconds': t}
                   for k, w, f, t in rows], open(a.json, 'w'), indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
