"""What the generator scripts share: formatting with the toolchain's swift-format and the `--check` comparison.

Imported by generate-arities.py, generate-flatmap.py and extract-doc-examples.py (run as `python3 Scripts/<name>.py`,
so this directory is on the import path).
"""

import difflib
import os
import subprocess
import sys


def swift_format(root, text):
    """`text` formatted by the toolchain's `swift format` with the repository's .swift-format."""
    result = subprocess.run(
        ["swift", "format", "format", "--configuration", os.path.join(root, ".swift-format"), "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"error: swift format failed:\n{result.stderr}")
    return result.stdout


def stale_files(root, files, script):
    """The paths of `files` ((path, expected text) pairs) whose file under `root` differs; prints a diff of each."""
    stale = []
    for path, expected in files:
        current_path = os.path.join(root, path)
        current = open(current_path, encoding="utf-8").read() if os.path.exists(current_path) else ""
        if current != expected:
            stale.append(path)
            diff = difflib.unified_diff(
                current.splitlines(keepends=True),
                expected.splitlines(keepends=True),
                fromfile=f"{path} (in the repository)",
                tofile=f"{path} (what {script} writes)",
            )
            sys.stdout.writelines(list(diff)[:80])
    return stale


def exit_if_stale(stale, script, hint):
    """Fails the check, naming the stale files and how to regenerate them."""
    if stale:
        sys.exit(
            f"error: {len(stale)} generated file(s) are not what {script} writes: {', '.join(stale)}.\n"
            f"{hint}: regenerate them with: python3 {script}"
        )
