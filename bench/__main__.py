"""Run every benchmark: ``python -m bench [AREA ...] [-- ARGS passed to each script]``.

    python -m bench               # every area (what `make bench` does)
    python -m bench api scale     # only these areas
    python -m bench api -- --seconds 5
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent


def scripts(area: Path) -> list[str]:
    """The modules to run for one area, as ``python -m`` names."""
    if (area / "__main__.py").exists():
        return [f"bench.{area.name}"]
    return [f"bench.{area.name}.{path.stem}" for path in sorted(area.glob("bench_*.py"))]


def areas(selected: list[str]) -> list[Path]:
    found = sorted(p for p in BENCH_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    found = [p for p in found if scripts(p)]
    if not selected:
        return found
    names = {p.name: p for p in found}
    unknown = [name for name in selected if name not in names]
    if unknown:
        raise SystemExit(f"no benchmark area {', '.join(unknown)}; there are: {', '.join(names)}")
    return [names[name] for name in selected]


def main(argv: list[str]) -> int:
    extra: list[str] = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    failed: list[str] = []
    chosen = areas(argv)
    if not chosen:
        print("no benchmarks found under bench/", file=sys.stderr)
        return 1
    for area in chosen:
        for module in scripts(area):
            print(f"\n=== {module} ===", flush=True)
            started = time.perf_counter()
            code = subprocess.call([sys.executable, "-m", module, *extra], cwd=ROOT)
            print(f"=== {module}: exit {code} after {time.perf_counter() - started:.1f} s ===", flush=True)
            if code != 0:
                failed.append(module)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
