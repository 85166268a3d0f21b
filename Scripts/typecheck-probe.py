#!/usr/bin/env python3
"""How long users' chains take to type-check: the figures behind the library's compile-time target.

Type-checks, against the debug build of AsyncReactive and AsyncReactiveTesting, each file of Benchmarks/TypeCheck/
(a view model's chains as a user writes them), the Demo's screens and the README's examples, with
`-warn-long-expression-type-checking=1` (Swift then reports every expression that took 1 ms or more), three times
each, and prints the median of the runs: the whole probe's total over the reported expressions, and its slowest
expression. Target: a probe's total <= 80 ms and no expression over 25 ms.

    python3 Scripts/typecheck-probe.py            # builds the library in debug first
    python3 Scripts/typecheck-probe.py --runs 5 --top 5
"""
import argparse, glob, os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = ["-swift-version", "6", "-enable-upcoming-feature", "ExistentialAny",
         "-enable-upcoming-feature", "MemberImportVisibility"]
WARNING = re.compile(r"^(.*?):(\d+):(\d+): warning: expression took (\d+)ms to type-check")


def probes():
    """(name, files to type-check together, the file whose expressions count: None for all of them)."""
    found = [(os.path.relpath(path, ROOT), [path], None)
             for path in sorted(glob.glob(f"{ROOT}/Benchmarks/TypeCheck/*.swift"))]
    found.append(("Demo (every screen)", sorted(glob.glob(f"{ROOT}/Sources/Demo/**/*.swift", recursive=True)), None))
    # The README's blocks are compiled with the other articles' (they share a prelude); only the README's count.
    found.append(("README examples", sorted(glob.glob(f"{ROOT}/Tests/DocExampleTests/**/*.swift", recursive=True)),
                  "README.md"))
    return found


def typecheck(files, modules, counted):
    command = ["swiftc", "-typecheck", "-I", modules, *FLAGS, *files,
               "-Xfrontend", "-warn-long-expression-type-checking=1"]
    if not any(os.path.basename(f) == "main.swift" for f in files):
        command.insert(2, "-parse-as-library")
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        sys.exit(f"type-check failed:\n{' '.join(command)}\n{result.stderr}")
    expressions = []
    for line in result.stderr.splitlines():
        match = WARNING.match(line)
        if match:
            path, row, column, ms = match.groups()
            if counted and os.path.basename(path) != counted:
                continue
            expressions.append((int(ms), f"{os.path.relpath(path, ROOT)}:{row}:{column}"))
    return expressions


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=3, help="slowest expressions to list per probe")
    parser.add_argument("--no-build", action="store_true", help="use the debug build as it is")
    options = parser.parse_args()
    if not options.no_build:
        subprocess.run(["swift", "build", "--target", "AsyncReactiveTesting"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    print(f"{'probe':40s} {'total ms':>9s} {'slowest ms':>11s}   (median of {options.runs} runs)")
    for name, files, counted in probes():
        runs = [typecheck(files, modules, counted) for _ in range(options.runs)]
        totals = [sum(ms for ms, _ in run) for run in runs]
        slowest = [max((ms for ms, _ in run), default=0) for run in runs]
        print(f"{name:40s} {statistics.median(totals):9.0f} {statistics.median(slowest):11.0f}")
        middle = sorted(runs, key=lambda run: sum(ms for ms, _ in run))[len(runs) // 2]
        for ms, where in sorted(middle, reverse=True)[:options.top]:
            print(f"    {ms:5d} ms  {where}")


if __name__ == "__main__":
    main()
