#!/usr/bin/env python3
# Checks the relative links of README.md, docs/*.md, bench/**/README.md and
# fuzz/README.md: each
# target file exists and, for #anchor, the target has a heading with that
# GitHub slug. Prints the broken ones; exits 1 if any.
#   tools/check-doc-links.py [REPO_ROOT]
import os, re, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
os.chdir(root)
files = ['README.md'] + sorted(glob.glob('docs/*.md')) + sorted(glob.glob('bench/**/README.md', recursive=True)) + ['fuzz/README.md']

def slugs(path):
    out, seen, fence = set(), {}, False
    for line in open(path):
        if line.startswith('```'):
            fence = not fence
            continue
        m = not fence and re.match(r'^(#{1,6})\s+(.*?)\s*$', line)
        if not m:
            continue
        s = m.group(2).lower()
        s = re.sub(r'[^\w\- ]', '', s).replace(' ', '-')
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f'{s}-{n}')
    return out

bad = 0
for f in files:
    text = open(f).read()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        t = m.group(1)
        if re.match(r'[a-z]+://', t) or t.startswith('mailto:'):
            continue
        path, _, anchor = t.partition('#')
        target = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(target):
            print(f'{f}: missing file: {t}'); bad += 1; continue
        if anchor and target.endswith('.md') and anchor not in slugs(target):
            print(f'{f}: missing anchor: {t}'); bad += 1
print(f'{len(files)} files, {bad} broken links')
sys.exit(1 if bad else 0)
