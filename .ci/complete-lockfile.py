#!/usr/bin/env python3
# Sandbox-only helper: see the docstring. Run it after `npm install` on a machine whose npm registry
# mirror lacks other platforms' binaries; a lockfile written against the public registry needs nothing.
"""Adds lockfile entries for optional platform packages (darwin/win32/android/... binaries) that
this machine's npm registry mirror does not carry, so that `npm ci` accepts a lockfile written by
`npm install` here. Each entry goes where its installed linux sibling sits and carries os/cpu/libc,
so npm skips it on linux; nothing is fetched. Usage: python3 complete-lockfile.py [package-lock.json]"""
import json, re, sys
path = sys.argv[1] if len(sys.argv) > 1 else "package-lock.json"
lock = json.load(open(path))
pk = lock["packages"]

def platform(name):
    n = name.split("/")[-1]
    os_ = next((o for o in ["android", "darwin", "freebsd", "openharmony", "win32", "windows", "linux"] if o in n), None)
    os_ = "win32" if os_ == "windows" else os_
    cpu = next((c for pat, c in [(r"arm64", "arm64"), (r"ia32", "ia32"), (r"riscv64", "riscv64"), (r"s390x", "s390x"),
                                  (r"ppc64", "ppc64"), (r"x64|-64$", "x64"), (r"arm", "arm")] if re.search(pat, n)), None)
    libc = "musl" if "musl" in n else ("glibc" if os_ == "linux" and "gnu" in n else None)
    return os_, cpu, libc

def resolved(parent, name):
    """Where npm would find `name` required from `parent` (walking up), or None."""
    base = parent
    while True:
        p = (base + "/node_modules/" + name) if base else "node_modules/" + name
        if p in pk: return p
        if not base: return None
        base = base.rsplit("/node_modules/", 1)[0] if "/node_modules/" in base else ""

out = {}
added = 0
additions = {}
for parent, meta in pk.items():
    opt = meta.get("optionalDependencies") or {}
    for name, spec in opt.items():
        if resolved(parent, name): continue
        os_, cpu, libc = platform(name)
        if not os_ or not cpu: continue
        sibling = next((resolved(parent, s) for s in opt if resolved(parent, s)), None)
        if sibling is None: continue
        target = sibling.rsplit("/node_modules/", 1)[0] + "/node_modules/" + name if "/node_modules/" in sibling else "node_modules/" + name
        if target in pk or target in additions.get(sibling, {}): continue
        entry = {"version": spec, "cpu": [cpu], "dev": True if meta.get("dev") else None, "optional": True, "os": [os_]}
        if libc: entry["libc"] = [libc]
        additions.setdefault(sibling, {})[target] = {k: v for k, v in entry.items() if v is not None}
        added += 1
for key, value in pk.items():
    out[key] = value
    out.update(additions.get(key, {}))
lock["packages"] = out
with open(path, "w") as f:
    json.dump(lock, f, indent=2, ensure_ascii=False)
    f.write("\n")
print(f"added {added} optional platform entries to {path}")
