#!/usr/bin/env python3
"""Compiles the documentation's code: every ```swift block of the README and the DocC catalog, in a test target.

    python3 Scripts/extract-doc-examples.py                  # rewrites Tests/DocExampleTests/Generated/*.swift
    python3 Scripts/extract-doc-examples.py --output-dir D   # writes them under D instead
    python3 Scripts/extract-doc-examples.py --check          # fails if the files differ from what it would write (CI)
    python3 Scripts/extract-doc-examples.py --list           # prints every block: where it goes, or why it is skipped

An example that stops compiling fails the build of the DocExampleTests target, and with it `swift test` and
`.ci/run`. The compiler reports the error at the markdown line: each block is preceded by a `#sourceLocation`
directive naming the article and the block's first line, and its lines are copied as they are (columns match too).

Where a block goes. Each article (README.md, every .md under Sources/AsyncReactive/AsyncReactive.docc/) becomes one
file, `Generated/<Article>.swift`, with a namespace `struct <Article>Examples`, so that two articles may each declare
their own `SearchViewModel`. A block is split into its top-level items (a line at brace depth 0 starts one):

- type declarations and functions (`actor`, `struct`, `class`, `enum`, `protocol`, `func`, `typealias`, `@Test`
  functions: whatever starts with one of these keywords after its attributes and modifiers) go in the namespace, where
  the article's later blocks see them, and `@Test` functions run with the suite;
- `extension`s go at file scope (Swift does not nest them);
- the other lines (statements, local `let`s and `var`s) go, in their order, into a function of their own:
  `static func example<n>()` of the namespace, `@MainActor` (most examples are view code) and `async throws`.
  Each `let`/`var` the block declares at its top level is read once after it, so that an example may end on a
  declaration without a warning. `import` lines become blank lines (the generated file imports AsyncReactive,
  AsyncReactiveTesting and Testing).

What the examples take as given (an `api`, a `label`, a `viewModel`, `User`, `show(_:)`, UIKit- and SwiftUI-like
widgets) is declared by hand in Tests/DocExampleTests/Prelude.swift: names every article uses at module scope,
names one article uses differently in an extension of its namespace (`extension CatchOperatorExamples { ... }`).
Keep stand-ins there, not in the articles.

Markers. An HTML comment on the line before the fence (GitHub and DocC do not show it) changes what happens to the
block:

- `<!-- example: not compiled: <reason> -->`: skipped. For code that must not compile (a "this does not compile"
  example) or cannot (a Package.swift fragment). Keep these rare and say why; code that is not Swift takes another
  fence language (```text, ```sh, ```objc).
- `<!-- example: at "<line>" -->`: the block replaces the line `<line>` (compared without surrounding spaces) of an
  earlier block of the same article; several blocks at the same line go in their order. For an article that builds
  a type step by step (a placeholder comment `// Steps 3 to 5.` in an initialiser, filled by the next blocks).
- `<!-- example: context=<Type> -->`: the block's statements run in an instance method of `extension <Type>`, a type
  of the prelude, so that `self` and the type's properties are in scope (a fragment of a view's method).

Needs Python 3 only.
"""

import argparse
import glob
import os
import re
import sys

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/extract-doc-examples.py"
OUTPUT = "Tests/DocExampleTests/Generated"
CATALOG = "Sources/AsyncReactive/AsyncReactive.docc"
IMPORTS = ["AsyncReactive", "AsyncReactiveTesting", "Observation", "Testing"]

MARKER = re.compile(r"^<!--\s*example:\s*(.*?)\s*-->$")
ATTRIBUTE = re.compile(r"@\w+(\([^)]*\))?\s*")
MODIFIERS = {"final", "private", "fileprivate", "internal", "public", "nonisolated", "static", "indirect"}
NAMESPACE_DECLARATIONS = {"actor", "struct", "class", "enum", "protocol", "func", "typealias"}
BINDING = re.compile(r"^(?:let|var)\s+(?:(\w+)|\(([\w\s,]+)\))")


def articles(root):
    """The markdown files whose ```swift blocks are compiled, README first."""
    paths = ["README.md"]
    paths += sorted(
        os.path.relpath(path, root)
        for path in glob.glob(os.path.join(root, CATALOG, "**", "*.md"), recursive=True)
    )
    return paths


class Block:
    def __init__(self, path, fence_line, lines, marker):
        self.path = path
        self.fence_line = fence_line  # 1-based line of the opening fence
        self.first_line = fence_line + 1  # 1-based line of the block's first code line
        self.lines = lines
        self.marker = marker
        self.splices = {}  # index of a line of this block -> blocks that replace it
        self.skip_reason = None
        self.splice_at = None
        self.context = None
        self.indent = ""
        if marker is not None:
            if marker.startswith("not compiled:"):
                self.skip_reason = marker[len("not compiled:") :].strip()
                if not self.skip_reason:
                    fail(self, "`not compiled:` needs a reason")
            elif (match := re.fullmatch(r'at\s+"(.+)"', marker)) is not None:
                self.splice_at = match.group(1).strip()
            elif (match := re.fullmatch(r"context=(\w+)", marker)) is not None:
                self.context = match.group(1)
            else:
                fail(self, f"unknown marker `<!-- example: {marker} -->`")

    @property
    def location(self):
        return f"{self.path}:{self.fence_line}"


def fail(block, message):
    sys.exit(f"{block.location}: error: {message}")


def read_blocks(root, path):
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    blocks = []
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                sys.exit(f"{path}:{index + 1}: error: the ```swift block is not closed")
            previous = index - 1
            while previous >= 0 and not lines[previous].strip():
                previous -= 1
            match = MARKER.match(lines[previous].strip()) if previous >= 0 else None
            body = lines[index + 1 : end]
            code = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in body]
            block = Block(path, index + 1, code, match.group(1) if match else None)
            block.indent = indent
            blocks.append(block)
            index = end
        index += 1
    return blocks


def code_of(line):
    """The line without its string literals' contents and its `//` comment, to count brackets."""
    result = []
    in_string = False
    index = 0
    while index < len(line):
        character = line[index]
        if in_string:
            if character == "\\":
                index += 1
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif line.startswith("//", index):
            break
        else:
            result.append(character)
        index += 1
    return "".join(result)


def depth_change(line):
    code = code_of(line)
    return sum(code.count(c) for c in "{([") - sum(code.count(c) for c in "})]")


def item_kind(line):
    """What a top-level line starts: "namespace", "file" or "statement"."""
    text = line.strip()
    while True:
        match = ATTRIBUTE.match(text)
        if match is None:
            break
        text = text[match.end() :]
    words = text.split()
    while words and words[0] in MODIFIERS:
        words = words[1:]
    if not words:
        return "attributes"  # a line of attributes only: it belongs to the next line's item
    keyword = re.match(r"\w*", words[0]).group(0)
    if keyword == "extension":
        return "file"
    if keyword in NAMESPACE_DECLARATIONS:
        return "namespace"
    return "statement"


def items(lines):
    """Splits a block into (kind, first index, lines) items; comments and attributes go with the next line."""
    result = []
    depth = 0
    pending = []  # indices of comment, blank and attribute lines waiting for the next item
    current = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if depth == 0:
            if not stripped or stripped.startswith("//"):
                pending.append(index)
                continue
            if stripped.startswith("import "):
                pending.append(index)  # replaced by a blank line when written
                continue
            kind = item_kind(line)
            if kind == "attributes":
                pending.append(index)
                continue
            follows_statement = current is not None and current[0] == "statement" and kind == "statement"
            continues = stripped[0] in ".)]}" or follows_statement
            if continues and current is not None:
                current[2].extend(pending + [index])
            else:
                first = pending[0] if pending else index
                current = [kind, first, pending + [index]]
                result.append(current)
            pending = []
        else:
            current[2].append(index)
        depth += depth_change(line)
        if depth < 0:
            depth = 0
    if pending and current is not None:
        current[2].extend(pending)
    return [(kind, indices) for kind, _, indices in result]


def bindings(lines, indices):
    """Names a statement item declares at its top level (`let x`, `var (a, b)`)."""
    names = []
    depth = 0
    for index in indices:
        line = lines[index]
        if depth == 0:
            match = BINDING.match(line.strip())
            if match and not line.startswith((" ", "\t")):
                if match.group(1):
                    names.append(match.group(1))
                else:
                    names += [name.strip() for name in match.group(2).split(",") if name.strip() != "_"]
        depth = max(0, depth + depth_change(line))
    return names


def source_lines(block, indices, out):
    """Writes the block's lines at `indices`, each run under a #sourceLocation naming its markdown line."""
    previous = None
    for index in indices:
        if index in block.splices:
            for spliced in block.splices[index]:
                source_lines(spliced, range(len(spliced.lines)), out)
            previous = None
            continue
        if previous is None or index != previous + 1:
            out.append(f'#sourceLocation(file: "{block.path}", line: {block.first_line + index})')
        line = block.lines[index]
        # As it is in the markdown (a block in a list is indented), so that columns match.
        out.append("" if line.strip().startswith("import ") else (block.indent + line if line else ""))
        previous = index
    out.append("#sourceLocation()")


def namespace(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return ("Readme" if stem == "README" else stem) + "Examples"


def output_name(path):
    return os.path.splitext(os.path.basename(path))[0] + ".swift"


def article_source(path, blocks):
    name = namespace(path)
    members = []  # lines inside the namespace
    file_scope = []  # lines after it
    compiled = [block for block in blocks if block.skip_reason is None and block.splice_at is None]
    for number, block in enumerate(compiled, start=1):
        statements = []
        for kind, indices in items(block.lines):
            if kind == "namespace":
                members.append(f"  // {block.location}")
                source_lines(block, indices, members)
            elif kind == "file":
                file_scope.append(f"// {block.location}")
                source_lines(block, indices, file_scope)
            else:
                statements += indices
        if not statements:
            continue
        function = f"example{number}"
        reads = bindings(block.lines, statements)
        body = []
        source_lines(block, statements, body)
        if reads:
            body.append(f"    _ = ({', '.join(reads)})" if len(reads) > 1 else f"    _ = {reads[0]}")
        if block.context is None:
            members.append(f"  /// {block.location}")
            members.append(f"  @MainActor static func {function}() async throws {{")
            members += body
            members.append("  }")
        else:
            file_scope.append(f"extension {block.context} {{")
            file_scope.append(f"  /// {block.location}")
            file_scope.append(f"  func {name}_{function}() async throws {{")
            file_scope += body
            file_scope.append("  }")
            file_scope.append("}")
    header = [
        f"// Generated by {SCRIPT} from",
        f"// {path}: do not edit by hand.",
        f"// Edit the article and run `python3 {SCRIPT}`; `.ci/run` fails when this file is not what",
        "// the script writes. Compile errors point at the article's lines (#sourceLocation); the names the examples",
        "// take as given are declared in Tests/DocExampleTests/Prelude.swift.",
        "// swift-format-ignore-file",
        *(f"import {module}" for module in IMPORTS),
        "",
        f"/// The ```swift blocks of {path}.",
        f"struct {name} {{",
        *members,
        "}",
    ]
    if file_scope:
        header += ["", *file_scope]
    return "\n".join(header) + "\n"


def collect(root):
    """Every article's blocks, with the splices attached to their hosts."""
    result = []
    for path in articles(root):
        blocks = read_blocks(root, path)
        for position, block in enumerate(blocks):
            if block.splice_at is None:
                continue
            hosts = [
                (host, index)
                for host in blocks[:position]
                if host.skip_reason is None
                for index, line in enumerate(host.lines)
                if line.strip() == block.splice_at
            ]
            if len(hosts) != 1:
                fail(block, f'`at "{block.splice_at}"`: {len(hosts)} earlier blocks have that line (need exactly 1)')
            host, index = hosts[0]
            host.splices.setdefault(index, []).append(block)
        if blocks:
            result.append((path, blocks))
    return result


def outputs(root):
    """Each generated file's path and text."""
    return [
        (os.path.join(OUTPUT, output_name(path)), article_source(path, blocks))
        for path, blocks in collect(root)
        if any(block.skip_reason is None for block in blocks)
    ]


def write(root, destination):
    files = outputs(root)
    directory = os.path.join(destination, OUTPUT)
    os.makedirs(directory, exist_ok=True)
    wanted = {os.path.basename(path) for path, _ in files}
    for stale in os.listdir(directory):
        if stale.endswith(".swift") and stale not in wanted:
            os.remove(os.path.join(directory, stale))
    for path, text in files:
        with open(os.path.join(destination, path), "w", encoding="utf-8") as file:
            file.write(text)
    return files


def check():
    """Compares what the script writes with the repository's files, and finds generated files no article writes."""
    files = outputs(ROOT)
    stale = []
    expected_names = {os.path.basename(path) for path, _ in files}
    current_directory = os.path.join(ROOT, OUTPUT)
    if os.path.isdir(current_directory):
        for name in sorted(os.listdir(current_directory)):
            if name.endswith(".swift") and name not in expected_names:
                stale.append(os.path.join(OUTPUT, name))
                print(f"{os.path.join(OUTPUT, name)}: no article writes it")
    stale += generated_files.stale_files(ROOT, files, SCRIPT)
    generated_files.exit_if_stale(stale, SCRIPT, "An article changed")
    blocks = [block for _, article in collect(ROOT) for block in article]
    skipped = sum(1 for block in blocks if block.skip_reason is not None)
    compiled = len(blocks) - skipped
    print(f"documentation examples are current ({compiled} blocks compiled, {skipped} not, {len(files)} files)")


def list_blocks():
    for _, blocks in collect(ROOT):
        for block in blocks:
            if block.skip_reason is not None:
                where = f"not compiled: {block.skip_reason}"
            elif block.splice_at is not None:
                where = f'at "{block.splice_at}"'
            else:
                kinds = sorted({kind for kind, _ in items(block.lines)})
                where = ", ".join(kinds) + (f" (context {block.context})" if block.context else "")
            print(f"{block.location}: {where}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", help="write the files under this directory instead of the repository")
    parser.add_argument("--check", action="store_true", help="regenerate into a temporary directory and diff")
    parser.add_argument("--list", action="store_true", help="print every block and where it goes")
    arguments = parser.parse_args()
    if arguments.check:
        check()
    elif arguments.list:
        list_blocks()
    else:
        write(ROOT, arguments.output_dir or ROOT)


if __name__ == "__main__":
    main()
