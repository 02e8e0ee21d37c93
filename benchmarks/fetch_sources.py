"""Put the published sessions a benchmark set names into its ``local/`` folder.

Each set's ``SOURCES.md`` (``honest/``, ``redact_blind/`` to ``redact_blind9/``,
``redact_tuning/``) has a table row per session: its name, the GitHub repository, the
commit and the path. Sessions published without a licence
are not shipped, so a fresh checkout has none of them; this writes each file exactly as committed
(``git show <commit>:<path>``) to ``local/<name>.<extension>``.

    python benchmarks/fetch_sources.py benchmarks/honest/SOURCES.md
    python benchmarks/fetch_sources.py --mirror DIR benchmarks/*/SOURCES.md

With ``--mirror DIR``, the repositories are read from bare clones already on disk,
``DIR/<owner>+<name>/repo`` (or ``DIR/<owner>+<name>``); without it each repository is
fetched from GitHub into a temporary bare clone, which needs the network.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path


def rows(sources: Path) -> list[tuple[str, str, str, str]]:
    """(name, repository, commit, path) of each session row of a SOURCES.md table."""
    found = []
    for line in sources.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and len(cells[2]) == 40 and "/" in cells[1]:
            found.append((cells[0], cells[1], cells[2], cells[3]))
    return found


def git_dir(repo: str, mirror: Path | None, scratch: Path) -> Path:
    """A git directory holding ``repo``'s objects."""
    if mirror is not None:
        base = mirror / repo.replace("/", "+")
        return base / "repo" if (base / "repo").exists() else base
    target = scratch / repo.replace("/", "+")
    if not target.exists():
        url = f"https://github.com/{repo}.git"
        subprocess.run(["git", "clone", "--quiet", "--bare", url, str(target)], check=True)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+", type=Path, help="a set's SOURCES.md")
    parser.add_argument("--mirror", type=Path, help="folder of bare clones, <owner>+<name>")
    args = parser.parse_args()
    missing = 0
    with tempfile.TemporaryDirectory() as scratch:
        for sources in args.sources:
            local = sources.parent / "local"
            local.mkdir(exist_ok=True)
            written = 0
            for name, repo, commit, path in rows(sources):
                target = local / f"{name}{''.join(Path(path).suffixes[-1:])}"
                if target.exists():
                    continue
                try:
                    where = git_dir(repo, args.mirror, Path(scratch))
                    blob = subprocess.run(
                        ["git", "--git-dir", str(where), "show", f"{commit}:{path}"],
                        capture_output=True,
                        check=True,
                    ).stdout
                except (subprocess.CalledProcessError, OSError) as exc:
                    where_from = f"{repo}@{commit[:7]}:{path}"
                    print(f"{sources.parent.name}: {where_from}: {exc}", file=sys.stderr)
                    missing += 1
                    continue
                target.write_bytes(blob)
                written += 1
            print(f"{local}: {written} written, {len(list(local.iterdir()))} in all")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
