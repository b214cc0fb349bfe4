#!/usr/bin/env python3
"""Assemble models.dev's api.json shape from a git copy of its repository (anomalyco/models.dev).

Usage: models-dev-api-json.py GIT_DIR COMMIT PROVIDER... > api.json

For each named provider: `providers/<p>/provider.toml` (plus `id`) with `models`, one entry per
`providers/<p>/models/**/*.toml` (id = the path under models/ without `.toml`). A model file
with `base_model` inherits the top-level `models/<base_model>.toml` minus id, benchmarks,
license, links and weights, deep-merged under its own keys (tables merge, arrays and scalars
replace), then `base_model_omit` paths removed: what packages/core/src/generate.ts does at that
commit. Integers keep TOML's value (`128_000` is 128000). Nothing else is added or derived.
"""
import json
import subprocess
import sys
import tomllib


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True).stdout


def toml_at(git_dir, commit, path):
    return tomllib.loads(git(git_dir, "show", f"{commit}:{path}").decode("utf-8"))


def deep_merge(base, over):
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def omit(model, paths):
    for path in paths:
        parts = path.split(".")
        parents = []
        current = model
        ok = True
        for part in parts[:-1]:
            nxt = current.get(part)
            if not isinstance(nxt, dict):
                ok = False
                break
            parents.append((current, part))
            current = nxt
        if not ok or parts[-1] not in current:
            continue
        del current[parts[-1]]
        for parent, key in reversed(parents):
            if parent[key]:
                break
            del parent[key]


def main():
    git_dir, commit, *providers = sys.argv[1:]
    files = git(git_dir, "ls-tree", "-r", "--name-only", commit).decode().splitlines()
    result = {}
    for provider in providers:
        record = toml_at(git_dir, commit, f"providers/{provider}/provider.toml")
        record["id"] = provider
        prefix = f"providers/{provider}/models/"
        models = {}
        for path in sorted(f for f in files if f.startswith(prefix) and f.endswith(".toml")):
            model_id = path[len(prefix) : -len(".toml")]
            model = toml_at(git_dir, commit, path)
            if "base_model" in model:
                base = toml_at(git_dir, commit, f"models/{model['base_model']}.toml")
                for key in ("id", "benchmarks", "license", "links", "weights"):
                    base.pop(key, None)
                drop = model.pop("base_model_omit", [])
                model.pop("base_model")
                model = deep_merge(base, model)
                omit(model, drop)
            model["id"] = model_id
            models[model_id] = model
        record["models"] = models
        result[provider] = record
    json.dump(result, sys.stdout, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


main()
