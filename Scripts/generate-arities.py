#!/usr/bin/env python3
"""Generates the arity overloads of combineLatest, zip and merge.

    python3 Scripts/generate-arities.py                  # rewrites the three *+Arities.swift files and the tests
    python3 Scripts/generate-arities.py --output-dir D   # writes them under D instead (what CI diffs)
    python3 Scripts/generate-arities.py --check          # fails if the files differ from what it would write (CI)
    python3 Scripts/generate-arities.py --topics         # prints the DocC Topics links for the landing page

Swift cannot write these overloads once: parameter packs reject same-element requirements (merge) and are not
specialised on Swift 6.3.1 (10-15x slower per element), so each arity is an overload of its own. This script is
their one template. Per operator and arity it writes four public overloads, which differ only in their generic
requirements and return type:

- inputs that share a failure type (`Never` included)  -> the sequence, failing with that type;
- inputs whose failure types differ                    -> the sequence, failing with `any Error`;
- the same two for inputs that are all `ReiterableAsyncSequence`s -> `ReiterableInputs<the sequence>`, so that
  `retry` applies. The sequence types erase their inputs' types, so they cannot conform conditionally; the
  compiler prefers the overload with more requirements, so re-iterable inputs get the re-iterable result.

and one internal builder that the four share. The two-input forms carry the full documentation; the others point
at them. It also writes Tests/AsyncReactiveTests/Operators/NaryArityTests.swift, which calls every overload.
The output goes through `swift format` (the toolchain's, with the repository's .swift-format), so the generated
files pass the format lint as they are. Needs Python 3 and the Swift toolchain only.
"""

import argparse
import os
import sys
import textwrap

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/generate-arities.py"
MAX_INPUTS = 8
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


def bases(n):
    return [f"Base{k}" for k in range(1, n + 1)]


def tuple_of(items):
    return "(" + ", ".join(items) + ")"


def element_tuple(n):
    return tuple_of(f"Base{k}.Element" for k in range(1, n + 1))


class Operator:
    """What sets one n-ary operator apart; the overload skeleton is shared."""

    name = ""
    sequence = ""
    path = ""
    summary = ""  # one line, with {count} for the number of inputs
    same_element = False  # merge: every input has Base1's element type

    def output(self, n):
        return element_tuple(n)

    def returns_doc(self, n):
        return f"an ``{self.sequence}`` of `{self.output(n)}`"

    def parameter_doc(self, k):
        return f"the {ORDINALS[k - 1]} input; its elements go to position {k - 1} of the tuple."

    def builder_body(self, n):
        raise NotImplementedError

    @property
    def maker(self):
        return "make" + self.name[0].upper() + self.name[1:]

    def two_input_link(self):
        """The DocC link to the two-input overload for inputs that share a failure type."""
        output = "Base1.Element" if self.same_element else "(Base1.Element,Base2.Element)"
        return f"``{self.name}(_:_:)->{self.sequence}<{output},Base1.Failure>``"


class CombineLatest(Operator):
    name = "combineLatest"
    sequence = "AsyncCombineLatestSequence"
    path = "Sources/AsyncReactive/Operators/CombineLatest/CombineLatest+Arities.swift"
    summary = "Combines the latest elements of {count} sequences into tuples"
    full_summary = (
        "Combines the latest elements of two sequences into tuples: first once every input has produced, then on "
        "every element of any input."
    )
    finishes = (
        "at once if an input finishes before producing anything (the others are cancelled); otherwise when every "
        "input has finished."
    )
    examples = {
        "shared": [
            "for await (name, password) in combineLatest(nameSubject, passwordSubject) {",
            "  loginEnabled.send(!name.isEmpty && password.count >= 8)",
            "}",
        ],
        "any": [
            "for try await (user, settings) in combineLatest(userSignal, settingsStream) {",
            "  render(user, settings)",
            "}",
        ],
        "reiterable": [
            "let screen = combineLatest(Signal.future { try await api.profile() }, Signal.future { try await api.wallet() })",
            "for try await (profile, wallet) in screen.retry(2) {   // a failure runs both requests again",
            "  render(profile, wallet)",
            "}",
        ],
    }

    def builder_body(self, n):
        latest = tuple_of(f"Base{k}.Element?" for k in range(1, n + 1))
        empty = tuple_of(["nil"] * n)
        full = tuple_of(f"latest.{k}!" for k in range(n))
        inputs = "\n".join(
            f"      .subscribe(base{k + 1}, index: {k}, failure: failure{k + 1}, rule: cell) {{ rule, element in\n"
            f"        rule.receive(from: {k}) {{ $0.{k} = element }}\n"
            f"      }},"
            for k in range(n)
        )
        return (
            f"  typealias Rule = CombineLatestRule<{latest}, {element_tuple(n)}>\n"
            f"  return {self.sequence} {{\n"
            f"    let cell = NaryRuleCell(Rule(inputCount: {n}, empty: {empty}) {{ latest in {full} }})\n"
            f"    return NaryStorage(\n"
            f"      inputs: [\n{inputs}\n      ]\n"
            f"    )\n"
            f"  }}"
        )


    def hot_builder_body(self, n):
        latest = tuple_of(f"Base{k}.Element?" for k in range(1, n + 1))
        empty = tuple_of(["nil"] * n)
        full = tuple_of(f"latest.{k}!" for k in range(n))
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k + 1}, failure: failure{k + 1}) {{ rule, element in rule.receive(from: {k}) {{ $0.{k} = element }} }},"
            for k in range(n)
        )
        replays = ", ".join(f"inputReplaysCurrent(base{k})" for k in range(1, n + 1))
        return (
            f"  typealias Rule = CombineLatestRule<{latest}, {element_tuple(n)}>\n"
            f"  typealias Inputs = HotInputs<Rule, Rule.Output, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  // A combination of current values is current too (combineLatest of properties).\n"
            f"  let replay: SubjectStorage<Rule.Output, Failure>.Replay = combinedReplay([{replays}])\n"
            f"  return HotSignal(\n"
            f"    node: Inputs.node(inputs, replay: replay) {{\n"
            f"      Rule(inputCount: {n}, empty: {empty}) {{ latest in {full} }}\n"
            f"    }})"
        )


class Zip(Operator):
    name = "zip"
    sequence = "AsyncZipSequence"
    path = "Sources/AsyncReactive/Operators/Zip/Zip+Arities.swift"
    summary = "Pairs the n-th elements of {count} sequences into tuples"
    full_summary = "Pairs the n-th elements of two sequences into tuples."
    finishes = (
        "as soon as an input has finished and every element it produced was paired (the others are cancelled then)."
    )
    examples = {
        "shared": [
            "for await (question, answer) in zip(questions, answers) {",
            '  transcript.append("\\(question) → \\(answer)")',
            "}",
        ],
        "any": [
            "for try await (request, response) in zip(sentRequests, responseStream) {",
            "  log(request.id, response.status)",
            "}",
        ],
        "reiterable": [
            "let pages = zip(Signal.future { try await mirrorA.page(1) }, Signal.future { try await mirrorB.page(1) })",
            "for try await (first, second) in pages.retry(2) {   // a failure downloads from both mirrors again",
            "  verify(first, second)",
            "}",
        ],
    }

    def builder_body(self, n):
        buffers = tuple_of(f"ZipBuffer<Base{k}.Element>" for k in range(1, n + 1))
        empty = tuple_of(["ZipBuffer()"] * n)
        take = tuple_of(f"buffers.{k}.removeFirst()" for k in range(n))
        inputs = "\n".join(
            f"      .subscribe(base{k + 1}, index: {k}, failure: failure{k + 1}, rule: cell) {{ rule, element in\n"
            f"        rule.receive(from: {k}) {{ $0.{k}.append(element) }}\n"
            f"      }},"
            for k in range(n)
        )
        return (
            f"  typealias Rule = ZipRule<{buffers}, {element_tuple(n)}>\n"
            f"  return {self.sequence} {{\n"
            f"    let cell = NaryRuleCell(\n"
            f"      Rule(inputCount: {n}, empty: {empty}) {{ buffers in\n"
            f"        {take}\n"
            f"      }}\n"
            f"    )\n"
            f"    return NaryStorage(\n"
            f"      inputs: [\n{inputs}\n      ]\n"
            f"    )\n"
            f"  }}"
        )


    def hot_builder_body(self, n):
        buffers = tuple_of(f"ZipBuffer<Base{k}.Element>" for k in range(1, n + 1))
        empty = tuple_of(["ZipBuffer()"] * n)
        take = tuple_of(f"buffers.{k}.removeFirst()" for k in range(n))
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k + 1}, failure: failure{k + 1}) {{ rule, element in rule.receive(from: {k}) {{ $0.{k}.append(element) }} }},"
            for k in range(n)
        )
        return (
            f"  typealias Rule = ZipRule<{buffers}, {element_tuple(n)}>\n"
            f"  typealias Inputs = HotInputs<Rule, Rule.Output, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  return HotSignal(\n"
            f"    node: Inputs.node(inputs, replay: .none) {{\n"
            f"      Rule(inputCount: {n}, empty: {empty}) {{ buffers in {take} }}\n"
            f"    }})"
        )


class Merge(Operator):
    name = "merge"
    sequence = "AsyncMergeSequence"
    path = "Sources/AsyncReactive/Operators/Merge/Merge+Arities.swift"
    summary = "Interleaves the elements of {count} sequences as they are produced"
    full_summary = "Interleaves the elements of two sequences as they are produced."
    finishes = "when every input has finished."
    same_element = True
    examples = {
        "shared": [
            "for await _ in merge(viewWillAppear, pullToRefresh) {",
            "  viewModel.refresh.trigger()",
            "}",
        ],
        "any": [
            "for try await message in merge(pushMessages, polledMessages) {",
            "  inbox.append(message)",
            "}",
        ],
        "reiterable": [
            "let news = merge(Signal.future { try await api.headlines() }, Signal.future { try await api.alerts() })",
            "for try await items in news.retry(2) {   // a failure asks both endpoints again",
            "  show(items)",
            "}",
        ],
    }

    def output(self, n):
        return "Base1.Element"

    def returns_doc(self, n):
        return f"an ``{self.sequence}`` of the inputs' elements"

    def parameter_doc(self, k):
        return f"the {ORDINALS[k - 1]} input."

    def builder_body(self, n):
        inputs = "\n".join(f"      .forwarding(base{k}, failure: failure{k})," for k in range(1, n + 1))
        return f"  {self.sequence} {{\n    NaryStorage(\n      inputs: [\n{inputs}\n      ]\n    )\n  }}"


    def hot_builder_body(self, n):
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k}, failure: failure{k}) {{ _, element in .emit(element) }}," for k in range(1, n + 1)
        )
        return (
            f"  typealias Inputs = HotInputs<MergeRule<Base1.Element>, Base1.Element, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  return HotSignal(node: Inputs.node(inputs, replay: .none) {{ MergeRule() }})"
        )


def doc(lines):
    """A doc comment: prose wrapped at the 120-column limit; code blocks and list items kept as they are."""
    out = []
    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith("```") or line.lstrip().startswith("- ") or not line:
            out.append(line)
        else:
            out += textwrap.wrap(line, width=116, break_long_words=False, break_on_hyphens=False)
    return "\n".join(("/// " + line).rstrip() for line in out) + "\n"


def overload_doc(op, n, failure, reiterable):
    """The documentation of one public overload: in full for two plain inputs, short otherwise."""
    count = WORDS[n]
    if n == 2 and not reiterable:
        throws = (
            [
                "**Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). "
                "When no input can fail, neither can the result: iterate it with plain `for await`."
            ]
            if failure == "shared"
            else [
                "**Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are "
                "cancelled). This overload serves inputs whose failure types differ; inputs that share one keep it."
            ]
        )
        if failure != "shared":
            # The contract is the shared-failure overload's; this one says only what differs.
            lines = [op.full_summary, "", f"Works as {op.two_input_link()} does; only what differs is written here.", ""]
            lines += throws + ["", "```swift"] + op.examples[failure] + ["```"]
            return doc(lines)
        lines = [op.full_summary, "", f"**Finishes:** {op.finishes}", ""] + throws + [""]
        lines += ["**Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.", ""]
        lines += ["```swift"] + op.examples[failure] + ["```"]
        lines += ["- Parameters:"] + [f"  - base{k}: {op.parameter_doc(k)}" for k in range(1, n + 1)]
        lines += [f"- Returns: {op.returns_doc(n)}."]
        return doc(lines)
    if failure == "shared":
        failing = "The inputs share one `Failure`, and so does the result (`Never` included: plain `for await`)."
    else:
        failing = "For inputs whose failure types differ: the result fails with `any Error`."
    if reiterable:
        lines = [
            op.summary.format(count=count) + ", again on every iteration.",
            "",
            f"For inputs that can all be iterated again (``ReiterableAsyncSequence``): like {op.two_input_link()}, "
            "and the result is a ``ReiterableInputs``, so ``ReiterableAsyncSequence/retry(_:)`` applies: each "
            f"iteration subscribes to every input anew. {failing}",
        ]
        if n == 2 and failure == "shared":
            lines += ["", "```swift"] + op.examples["reiterable"] + ["```"]
        lines += ["", f"- Returns: a ``ReiterableInputs`` wrapping {op.returns_doc(n)}."]
    else:
        lines = [
            op.summary.format(count=count) + ".",
            "",
            f"The {count}-input form of {op.two_input_link()}, with the same finish, failure and "
            f"cancellation rules. {failing}",
            "",
            f"- Returns: {op.returns_doc(n)}.",
        ]
    return doc(lines)


def requirements(op, n, shared_failure):
    clauses = []
    for k in range(1, n + 1):
        clause = [f"Base{k}.Element: Sendable"]
        if k > 1 and op.same_element:
            clause.append(f"Base{k}.Element == Base1.Element")
        if k > 1 and shared_failure:
            clause.append(f"Base{k}.Failure == Base1.Failure")
        clauses.append(", ".join(clause))
    return "where\n  " + ",\n  ".join(clauses) + "\n"


def overload(op, n, failure, reiterable):
    protocol = "ReiterableAsyncSequence" if reiterable else "AsyncSequence"
    generics = ", ".join(f"{base}: {protocol} & Sendable" for base in bases(n))
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    result = f"{op.sequence}<{op.output(n)}, {'Base1.Failure' if failure == 'shared' else 'any Error'}>"
    if reiterable:
        result = f"ReiterableInputs<{result}>"
    call = f"{op.maker}({', '.join(f'base{k}' for k in range(1, n + 1))}, failures: {', '.join(['{ $0 }'] * n)})"
    if reiterable:
        call = f"ReiterableInputs({call})"
    # Inputs that share a failure type match both failure overloads; the shared one is more specific, so it wins
    # anyway. Disfavouring the `any Error` one lets the type checker stop exploring it once the shared one fits:
    # with the re-iterable overloads, that halves the time to type-check a call (0.51 s -> 0.24 s for a file of
    # 40 n-ary calls) and changes no choice.
    attributes = "@_disfavoredOverload @inlinable" if failure == "any" else "@inlinable"
    return (
        overload_doc(op, n, failure, reiterable)
        + f"{attributes} public func {op.name}<{generics}>(\n  {parameters}\n) -> {result}\n"
        + requirements(op, n, failure == "shared")
        + f"{{\n  {call}\n}}\n"
    )


def builder(op, n):
    generics = ", ".join(f"{base}: AsyncSequence & Sendable" for base in bases(n)) + ", Failure: Error"
    failures = ",\n  ".join(
        ("failures " if k == 1 else "_ ") + f"failure{k}: @escaping @Sendable (Base{k}.Failure) -> Failure"
        for k in range(1, n + 1)
    )
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    comment = "/// Builds the sequence once the overload chose how each input's failure becomes the result's.\n"
    return (
        (comment if n == 2 else "")
        + f"@inlinable func {op.maker}<{generics}>(\n  {parameters},\n  {failures}\n)"
        + f" -> {op.sequence}<{op.output(n)}, Failure>\n"
        + requirements(op, n, False)
        + f"{{\n{op.builder_body(n)}\n}}\n"
    )


HOT_SUMMARY = {
    "combineLatest": "Combines the latest elements of {count} hot sequences into tuples, inside their sends",
    "zip": "Pairs the n-th elements of {count} hot sequences into tuples, inside their sends",
    "merge": "Interleaves the elements of {count} hot sequences, inside their sends",
}
HOT_EXAMPLES = {
    "combineLatest": [
        "let form = combineLatest(username, password)   // HotSignal<(String, String), Never>",
        'password.send("secret2")                       // `form` has produced ("tom", "secret2") when this returns',
    ],
    "zip": [
        "let pairs = zip(questions, answers)   // HotSignal<(Question, Answer), Never>",
    ],
    "merge": [
        "let refreshes = merge(viewWillAppear, pullToRefresh)   // HotSignal<Void, Never>",
    ],
}


# DocC tells apart overloads that differ only in their generic requirements by a hash of their symbol identifier
# (`merge(_:_:)-i3d6`): the all-hot and the mixed forms of two and three inputs all return a `HotSignal`. The hashes
# follow from the declarations; after changing one, print the table again with
# `python3 Scripts/generate-arities.py --docc-hashes .build/symbol-graphs` (after `.ci/docs` wrote the graphs).
DOCC_HASHES = {
    # (operator, which inputs are hot, failure): hash
    ("combineLatest", "CCH", "any"): "1vvuq",
    ("combineLatest", "CCH", "shared"): "62jll",
    ("combineLatest", "CH", "any"): "3quov",
    ("combineLatest", "CH", "shared"): "3wdke",
    ("combineLatest", "CHC", "any"): "81ahx",
    ("combineLatest", "CHC", "shared"): "1t1u6",
    ("combineLatest", "CHH", "any"): "x6p6",
    ("combineLatest", "CHH", "shared"): "3nl91",
    ("combineLatest", "HC", "any"): "ywdh",
    ("combineLatest", "HC", "shared"): "8pycn",
    ("combineLatest", "HCC", "any"): "3ibb1",
    ("combineLatest", "HCC", "shared"): "4kyyv",
    ("combineLatest", "HCH", "any"): "88f6u",
    ("combineLatest", "HCH", "shared"): "97d2j",
    ("combineLatest", "HH", "any"): "1hud2",
    ("combineLatest", "HH", "shared"): "1sbzv",
    ("combineLatest", "HHC", "any"): "2kgn2",
    ("combineLatest", "HHC", "shared"): "1wfyb",
    ("combineLatest", "HHH", "any"): "4pun4",
    ("combineLatest", "HHH", "shared"): "47cee",
    ("merge", "CCH", "any"): "14pgv",
    ("merge", "CCH", "shared"): "3sr4w",
    ("merge", "CH", "any"): "58q67",
    ("merge", "CH", "shared"): "5unpf",
    ("merge", "CHC", "any"): "6se31",
    ("merge", "CHC", "shared"): "22rjm",
    ("merge", "CHH", "any"): "9lk2g",
    ("merge", "CHH", "shared"): "37kgb",
    ("merge", "HC", "any"): "3oldx",
    ("merge", "HC", "shared"): "2xca2",
    ("merge", "HCC", "any"): "51mhq",
    ("merge", "HCC", "shared"): "2s5y1",
    ("merge", "HCH", "any"): "3webw",
    ("merge", "HCH", "shared"): "5b4sb",
    ("merge", "HH", "any"): "3unky",
    ("merge", "HH", "shared"): "i3d6",
    ("merge", "HHC", "any"): "7rage",
    ("merge", "HHC", "shared"): "8m1e9",
    ("merge", "HHH", "any"): "144uu",
    ("merge", "HHH", "shared"): "52f0h",
    ("zip", "CCH", "any"): "1gu3",
    ("zip", "CCH", "shared"): "9px2d",
    ("zip", "CH", "any"): "4woza",
    ("zip", "CH", "shared"): "6ldu8",
    ("zip", "CHC", "any"): "6el4z",
    ("zip", "CHC", "shared"): "20t99",
    ("zip", "CHH", "any"): "99gkr",
    ("zip", "CHH", "shared"): "25mqf",
    ("zip", "HC", "any"): "39gb9",
    ("zip", "HC", "shared"): "1cama",
    ("zip", "HCC", "any"): "t8gh",
    ("zip", "HCC", "shared"): "7k65x",
    ("zip", "HCH", "any"): "7hd12",
    ("zip", "HCH", "shared"): "6bs8v",
    ("zip", "HH", "any"): "2t69k",
    ("zip", "HH", "shared"): "9sj34",
    ("zip", "HHC", "any"): "2xv0z",
    ("zip", "HHC", "shared"): "7iyor",
    ("zip", "HHH", "any"): "2p318",
    ("zip", "HHH", "shared"): "18re3",
}


def docc_hash(op, pattern, failure):
    key = (op.name, "".join("H" if hot else "C" for hot in pattern), failure)
    if key not in DOCC_HASHES:
        sys.exit(f"no DocC hash for {key}: run with --docc-hashes (see DOCC_HASHES)")
    return DOCC_HASHES[key]


def hot_link(op, n, pattern, failure):
    """A DocC link to one hot or mixed overload: by return type when that is unique (no mixed forms at that arity),
    by hash otherwise."""
    labels = "_:" * n
    if n > MIXED_MAX_INPUTS:
        output = hot_output(op, n).replace(" ", "")
        return f"``{op.name}({labels})->HotSignal<{output},{'Base1.Failure' if failure == 'shared' else 'Error'}>``"
    return f"``{op.name}({labels})-{docc_hash(op, pattern, failure)}``"


def print_docc_hashes(graphs):
    """Prints DOCC_HASHES from the symbol graph the documentation build wrote (DocC's hash: FNV-1 of the symbol's
    precise identifier, folded to 24 bits, in base 36)."""
    import json
    import re

    def stable_hash(text):
        full = 2166136261
        for byte in text.encode():
            full = ((full * 16777619) & 0xFFFFFFFF) ^ byte
        bits = (full >> 24) ^ (full & 0xFFFFFF)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"
        out = ""
        while bits:
            out = digits[bits % 36] + out
            bits //= 36
        return out or "0"

    graph = json.load(open(os.path.join(graphs, "AsyncReactive.symbols.json")))
    rows = []
    for symbol in graph["symbols"]:
        name = symbol["pathComponents"][0]
        match = re.match(r"^(combineLatest|zip|merge)\(((?:_:)+)\)$", name)
        if not match or len(symbol["pathComponents"]) != 1:
            continue
        n = len(match.group(2)) // 2
        declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
        if n < 2 or n > MIXED_MAX_INPUTS or "-> HotSignal<" not in declaration:
            continue
        pattern = "".join("H" if f"Base{k} : HotSequence" in declaration else "C" for k in range(1, n + 1))
        failure = "any" if "any Error>" in declaration.split("->")[1].split("where")[0] else "shared"
        rows.append(f'    ("{match.group(1)}", "{pattern}", "{failure}"): "{stable_hash(symbol["identifier"]["precise"])}",')
    print("\n".join(sorted(rows)))


def hot_output(op, n):
    return "Base1.Element" if op.same_element else element_tuple(n)


def hot_two_input_link(op):
    return hot_link(op, 2, (True, True), "shared")


def hot_overload_doc(op, n, failure):
    summary = HOT_SUMMARY[op.name].format(count=WORDS[n]) + "."
    if n == 2 and failure == "shared":
        lines = [
            summary,
            "",
            "Every input is hot (a subject, a property, a ``HotSignal``), so the result is a ``HotSignal``: it is "
            f"evaluated inside the input's `send`, once for all of its consumers, with the same rules as {op.two_input_link()} "
            "(the stream form, which inputs that are not all hot get).",
            "",
            f"**Finishes:** {op.finishes}",
            "",
            "**Throws:** the inputs' common `Failure`, as soon as any input fails.",
            "",
            "```swift",
        ] + HOT_EXAMPLES[op.name] + [
            "```",
            "- Parameters:",
        ] + [f"  - base{k}: {op.parameter_doc(k)}" for k in range(1, n + 1)] + [
            "- Returns: a ``HotSignal`` of `" + hot_output(op, n) + "`.",
        ]
        return doc(lines)
    failing = (
        "The inputs share one `Failure`, and so does the result."
        if failure == "shared"
        else "For inputs whose failure types differ: the result fails with `any Error`."
    )
    return doc([summary, "", f"The {WORDS[n]}-input hot form, as {hot_two_input_link(op)}. {failing}"])


def hot_overload(op, n, failure):
    generics = ", ".join(f"{base}: HotSequence" for base in bases(n))
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    result = f"HotSignal<{hot_output(op, n)}, {'Base1.Failure' if failure == 'shared' else 'any Error'}>"
    call = f"makeHot{op.name[0].upper() + op.name[1:]}({', '.join(f'base{k}' for k in range(1, n + 1))}, failures: {', '.join(['{ $0 }'] * n)})"
    # Hot inputs also fit the stream overloads; these have the stronger requirements, so they win.
    attributes = "@_disfavoredOverload @inlinable" if failure == "any" else "@inlinable"
    return (
        hot_overload_doc(op, n, failure)
        + f"{attributes} public func {op.name}<{generics}>(\n  {parameters}\n) -> {result}\n"
        + requirements(op, n, failure == "shared")
        + f"{{\n  {call}\n}}\n"
    )


MIXED_MAX_INPUTS = 3
MIXED_SUMMARY = {
    "combineLatest": "Combines the latest elements of {count} sequences, some hot and some cold, into tuples",
    "zip": "Pairs the n-th elements of {count} sequences, some hot and some cold, into tuples",
    "merge": "Interleaves the elements of {count} sequences, some hot and some cold",
}
MIXED_EXAMPLES = {
    "combineLatest": [
        "let screen = combineLatest(selectedAccount, Signal.future { try await api.rates() })",
        "// HotSignal<(Account, Rates), any Error>: one request per connection, shared by every consumer",
    ],
    "zip": [
        "let numbered = zip(taps, Signal(1...3))   // HotSignal<((), Int), Never>: the first three taps, numbered",
    ],
    "merge": [
        "let refreshes = merge(pullToRefresh, Signal.just(()))   // HotSignal<Void, Never>: one refresh at connection",
    ],
}


def mixed_patterns(n):
    """Which inputs are hot, for every mix of hot and cold inputs (not all hot, not all cold)."""
    patterns = []
    for mask in range(1, 2**n - 1):
        patterns.append(tuple(bool(mask & (1 << (n - 1 - k))) for k in range(n)))
    return patterns


def mixed_overload_doc(op, n, pattern, failure):
    summary = MIXED_SUMMARY[op.name].format(count=WORDS[n]) + "."
    first = pattern == mixed_patterns(n)[-1] and failure == "shared"
    if n == 2 and first:
        lines = [
            summary,
            "",
            "The inputs are of both kinds: hot (a subject, a property, a ``HotSignal``) and cold (a ``Signal``, an "
            "`AsyncStream`, any other sequence). The result is hot, a ``HotSignal`` as in the all-hot form: every "
            "hot input is observed inside its `send`, and each cold input is iterated by one pump task from the "
            "result's first consumer to its last (a later connection runs it anew). Every consumer shares that one "
            "evaluation, and the node's lock orders the cold inputs' elements with the hot inputs' sends.",
            "",
            f"**Finishes:** {op.finishes}",
            "",
            "**Throws:** the inputs' common `Failure`, as soon as any input fails.",
            "",
            "```swift",
        ] + MIXED_EXAMPLES[op.name] + [
            "```",
            "- Parameters:",
        ] + [f"  - base{k}: {op.parameter_doc(k)}" for k in range(1, n + 1)] + [
            "- Returns: a ``HotSignal`` of `" + hot_output(op, n) + "`.",
        ]
        return doc(lines)
    kinds = ", ".join(("hot" if hot else "cold") for hot in pattern)
    failing = (
        "The inputs share one `Failure`, and so does the result."
        if failure == "shared"
        else "For inputs whose failure types differ: the result fails with `any Error`."
    )
    arguments = ", ".join(
        (f"subject{k}" if hot else f"signal{k}") for k, hot in enumerate(pattern, start=1)
    )
    hot_names = ", ".join(f"subject{k}" for k, hot in enumerate(pattern, start=1) if hot)
    result_failure = "Failure" if failure == "shared" else "any Error"
    return doc([
        summary,
        "",
        f"The form for {WORDS[n]} inputs that are {kinds}: a ``HotSignal``; the hot inputs are observed inside their "
        f"sends, each cold one by a pump task per connection, as for two inputs. {failing}",
        "",
        "```swift",
        f"let result = {op.name}({arguments})   // HotSignal<…, {result_failure}>: inside the sends of {hot_names}",
        "```",
    ])


def mixed_overload(op, n, pattern, failure):
    generics = ", ".join(
        f"{base}: {'HotSequence' if hot else 'AsyncSequence & Sendable'}" for base, hot in zip(bases(n), pattern)
    )
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    result = f"HotSignal<{hot_output(op, n)}, {'Base1.Failure' if failure == 'shared' else 'any Error'}>"
    call = f"makeHot{op.name[0].upper() + op.name[1:]}({', '.join(f'base{k}' for k in range(1, n + 1))}, failures: {', '.join(['{ $0 }'] * n)})"
    # More requirements than the stream form (a hot input), fewer than the all-hot form: a call with some hot and
    # some cold inputs gets this one.
    attributes = "@_disfavoredOverload @inlinable" if failure == "any" else "@inlinable"
    return (
        mixed_overload_doc(op, n, pattern, failure)
        + f"{attributes} public func {op.name}<{generics}>(\n  {parameters}\n) -> {result}\n"
        + requirements(op, n, failure == "shared")
        + f"{{\n  {call}\n}}\n"
    )


def hot_builder(op, n):
    generics = ", ".join(f"{base}: AsyncSequence & Sendable" for base in bases(n)) + ", Failure: Error"
    failures = ",\n  ".join(
        ("failures " if k == 1 else "_ ") + f"failure{k}: @escaping @Sendable (Base{k}.Failure) -> Failure"
        for k in range(1, n + 1)
    )
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    comment = (
        "/// Builds the hot node, one rule per connection: the hot inputs observed synchronously, each cold one (in the\n"
        "/// mixed forms) by a pump task per connection.\n"
    )
    return (
        (comment if n == 2 else "")
        + f"@inlinable func makeHot{op.name[0].upper() + op.name[1:]}<{generics}>(\n  {parameters},\n  {failures}\n)"
        + f" -> HotSignal<{hot_output(op, n)}, Failure>\n"
        + requirements(op, n, False)
        + f"{{\n{op.hot_builder_body(n)}\n}}\n"
    )


def header(op):
    return (
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        f"//\n"
        f"// The typed entry points of `{op.name}` for 2 to {MAX_INPUTS} inputs, four per arity: inputs that share a\n"
        f"// failure type (`Never` included) or not (`any Error`), each also for inputs that are all re-iterable\n"
        f"// (the result is then a `ReiterableInputs`, which `retry` accepts). They all forward to the shared n-ary\n"
        f"// engine; the arity only decides how elements are stored and built into outputs. Everything is\n"
        f"// `@inlinable` so that the client's module specialises the whole path for its element types. The `any Error`\n"
        f"// overloads are `@_disfavoredOverload`: it changes no choice and halves a call's type-check time (see the script).\n"
        f"// Then the hot forms, two per arity, for inputs that are all `HotSequence`s: a `HotSignal` evaluated inside the\n"
        f"// inputs' sends (the push core), on the hot engine (`HotInputs`) with the same rule as the stream form.\n"
    )


def source(op):
    parts = [header(op)]
    for n in range(2, MAX_INPUTS + 1):
        for reiterable in (False, True):
            for failure in ("shared", "any"):
                parts.append(overload(op, n, failure, reiterable))
    for n in range(2, MAX_INPUTS + 1):
        parts.append(builder(op, n))
    parts.append("// MARK: Hot inputs\n")
    for n in range(2, MAX_INPUTS + 1):
        for failure in ("shared", "any"):
            parts.append(hot_overload(op, n, failure))
    parts.append("// MARK: Hot and cold inputs\n")
    for n in range(2, MIXED_MAX_INPUTS + 1):
        for pattern in reversed(mixed_patterns(n)):
            for failure in ("shared", "any"):
                parts.append(mixed_overload(op, n, pattern, failure))
    for n in range(2, MAX_INPUTS + 1):
        parts.append(hot_builder(op, n))
    return "\n".join(parts)


TEST_PATH = "Tests/AsyncReactiveTests/Operators/NaryArityTests.swift"


def arity_tests(op, n):
    """Two tests per operator and arity: the re-iterable overloads (retry runs every input again) and the plain
    ones (a subject or a stream among the inputs: no retry), each with a shared and a mixed failure type, plus
    the `Never` and `any Error` cases of the plain ones. Together they call all four overloads."""
    count = WORDS[n]
    ints = tuple_of(["Int"] * n) if not op.same_element else "Int"
    if op.same_element:
        values = "collect().sorted()"
        expected = "{inputs}.secondAttempt"
    else:
        values = "map { [" + ", ".join(f"$0.{k}" for k in range(n)) + "] }.collect()"
        expected = "[{inputs}.secondAttempt]"
    typed = ", ".join(f"inputs.typed({k})" for k in range(n))
    mixed = ", ".join(["mixedInputs.never(0)"] + [f"mixedInputs.typed({k})" for k in range(1, n)])
    runs = "[" + ", ".join(["2"] * n) + "]"
    rest = ", ".join(f"inputs.typed({k})" for k in range(1, n))
    never_rest = ", ".join(["Signal<Int, Never>.empty"] * (n - 1))
    # A subject among cold inputs: the mixed form (hot) up to MIXED_MAX_INPUTS inputs, the stream form above.
    subject_result = f"HotSignal<{ints}, TestError>" if n <= MIXED_MAX_INPUTS else f"{op.sequence}<{ints}, TestError>"
    untyped_rest = ", ".join(["Signal<Int, any Error>.empty"] * (n - 1))
    return f"""
  @Test("{op.name} of {count} re-iterable inputs: retry runs every input again")
  func {op.name}{n}Retry() async throws {{
    let inputs = RerunInputs(count: {n})
    let shared = {op.name}({typed})
    let _: ReiterableInputs<{op.sequence}<{ints}, TestError>> = shared
    #expect(try await shared.retry(1).{values} == {expected.format(inputs="inputs")})
    #expect(inputs.runCounts == {runs})

    let mixedInputs = RerunInputs(count: {n})
    let mixed = {op.name}({mixed})
    let _: ReiterableInputs<{op.sequence}<{ints}, any Error>> = mixed
    #expect(try await mixed.retry(1).{values} == {expected.format(inputs="mixedInputs")})
    #expect(mixedInputs.runCounts == {runs})
  }}

  @Test("{op.name} of {count} inputs with a subject or a stream among them: the plain sequence, without retry")
  func {op.name}{n}SinglePass() async {{
    let inputs = RerunInputs(count: {n})
    let shared = {op.name}(AsyncPassthroughSubject<Int, TestError>(), {rest})
    let _: {subject_result} = shared
    let mixed = {op.name}(AsyncStream<Int> {{ $0.finish() }}, {rest})
    let _: {op.sequence}<{ints}, any Error> = mixed
    // `shared.retry(1)` and `mixed.retry(1)` do not compile: a subject or a stream does not run anew.
    #expect(!(type(of: shared) is any ReiterableAsyncSequence.Type))
    #expect(!(type(of: mixed) is any ReiterableAsyncSequence.Type))

    let never = {op.name}(AsyncStream<Int> {{ $0.finish() }}, {never_rest})
    let _: {op.sequence}<{ints}, Never> = never
    for await _ in never {{ Issue.record("no input produces") }}  // plain `for await`: the result cannot fail
    // Inputs that all fail with `any Error` fit both failure overloads; the shared one wins, unambiguously.
    let untyped = {op.name}(AsyncThrowingStream<Int, any Error> {{ $0.finish() }}, {untyped_rest})
    let _: {op.sequence}<{ints}, any Error> = untyped
  }}
"""


def hot_arity_test(op, n):
    count = WORDS[n]
    subjects = ", ".join(f"subjects[{k}]" for k in range(n))
    mixed = ", ".join(["AsyncPassthroughSubject<Int, Never>()"] + [f"subjects[{k}]" for k in range(1, n)])
    if op.same_element:
        record = "log.append([$0])"
        expected = "[" + ", ".join(f"[{k + 1}]" for k in range(n)) + "]"
        output = "Int"
    else:
        record = "log.append([" + ", ".join(f"$0.{k}" for k in range(n)) + "])"
        expected = "[[" + ", ".join(str(k + 1) for k in range(n)) + "]]"
        output = tuple_of(["Int"] * n)
    return f"""
  @Test("{op.name} of {count} subjects: a HotSignal, evaluated inside the sends")
  func {op.name}{n}Hot() {{
    let subjects = (0..<{n}).map {{ _ in AsyncPassthroughSubject<Int, TestError>() }}
    let shared = {op.name}({subjects})
    let _: HotSignal<{output}, TestError> = shared
    let mixed = {op.name}({mixed})
    let _: HotSignal<{output}, any Error> = mixed
    let lifetime = Lifetime()
    let log = Log<[Int]>()
    shared.sink(in: lifetime) {{ {record} }}
    for (index, subject) in subjects.enumerated() {{ subject.send(index + 1) }}
    // No await: every send was processed before it returned.
    #expect(log.all == {expected})
  }}
"""


def mixed_arity_test(op, n):
    """Every mix of hot and cold inputs at one arity: the static type says which overload was chosen (a
    `HotSignal`, with the shared or the `any Error` failure), and one run gives the exact output: each input
    produces one value (a cold one from its pump, a hot one sent after the consumer registered) and finishes."""
    count = WORDS[n]
    output = "Int" if op.same_element else tuple_of(["Int"] * n)
    if op.same_element:
        shape = "sorted()"
        expected = "[" + ", ".join(str(k + 1) for k in range(n)) + "]"
    else:
        shape = "map { [" + ", ".join(f"$0.{k}" for k in range(n)) + "] }"
        expected = "[[" + ", ".join(str(k + 1) for k in range(n)) + "]]"
    body = ""
    for index, pattern in enumerate(reversed(mixed_patterns(n))):
        kinds = ", ".join(("hot" if hot else "cold") for hot in pattern)
        inputs = []
        sends = []
        for k, hot in enumerate(pattern):
            if hot:
                inputs.append(f"subject{k}")
                sends.append(f"subject{k}.send({k + 1}); subject{k}.finish()")
            else:
                inputs.append(f"Signal<Int, TestError>.just({k + 1})")
        subjects = "\n    ".join(
            f"let subject{k} = AsyncPassthroughSubject<Int, TestError>()" for k, hot in enumerate(pattern) if hot
        )
        # The same inputs, one of them failing with `any Error`: the disfavoured overload.
        untyped = list(inputs)
        cold_index = pattern.index(False)
        untyped[cold_index] = f"Signal<Int, any Error>.just({cold_index + 1})"
        body += f"""
    // {kinds}
    do {{
      {subjects}
      let result = {op.name}({", ".join(inputs)})
      let _: HotSignal<{output}, TestError> = result
      let _: HotSignal<{output}, any Error> = {op.name}({", ".join(untyped)})
      let consumer = result.subscribe()
      {"; ".join(sends)}
      #expect(try await consumer.collect().{shape} == {expected})
    }}"""
    return f"""
  @Test("{op.name} of {count} inputs, some hot and some cold: a HotSignal for every mix, with the exact output")
  func {op.name}{n}Mixed() async throws {{{body}
  }}
"""


def test_source(operators):
    tests = "".join(arity_tests(op, n) for op in operators for n in range(2, MAX_INPUTS + 1))
    tests += "".join(hot_arity_test(op, n) for op in operators for n in range(2, MAX_INPUTS + 1))
    tests += "".join(mixed_arity_test(op, n) for op in operators for n in range(2, MIXED_MAX_INPUTS + 1))
    return (
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        f"//\n"
        f"// Every arity overload of combineLatest, zip and merge, called the way users call them: inputs that are all\n"
        f"// re-iterable get a `ReiterableInputs` whose retry runs every input again; a subject or a stream among the\n"
        f"// inputs gives the plain sequence. The typed failure is checked too (shared, or `any Error` when mixed).\n"
        f"import AsyncReactive\n"
        f"import AsyncReactiveTesting\n"
        f"import Testing\n\n"
        f'@Suite("n-ary arities")\n'
        f"struct NaryArityTests {{{tests}}}\n"
    )


def swift_format(text):
    return generated_files.swift_format(ROOT, text)


def topics(op):
    """The landing page's links, one per public overload (DocC tells overloads apart by their return type).

    The array forms are written by hand, next to their sequence types, but listed here too so that the whole
    block can be pasted.
    """
    array = "[Base.Element]" if not op.same_element else "Base.Element"
    links = [
        f"- ``{op.name}(_:)->{op.sequence}<{array},Base.Failure>``",
        f"- ``{op.name}(_:)->ReiterableInputs<{op.sequence}<{array},Base.Failure>>``",
    ]
    for n in range(2, MAX_INPUTS + 1):
        labels = "_:" * n
        output = op.output(n).replace(" ", "")
        for reiterable in (False, True):
            for failure in ("Base1.Failure", "Error"):
                result = f"{op.sequence}<{output},{failure}>"
                if reiterable:
                    result = f"ReiterableInputs<{result}>"
                links.append(f"- ``{op.name}({labels})->{result}``")
    for n in range(2, MAX_INPUTS + 1):
        for failure in ("shared", "any"):
            links.append("- " + hot_link(op, n, (True,) * n, failure))
    for n in range(2, MIXED_MAX_INPUTS + 1):
        for pattern in reversed(mixed_patterns(n)):
            for failure in ("shared", "any"):
                links.append("- " + hot_link(op, n, pattern, failure))
    return "\n".join(links)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", help="write the files under this directory instead of the repository")
    parser.add_argument("--check", action="store_true", help="regenerate into a temporary directory and diff")
    parser.add_argument("--topics", action="store_true", help="print the DocC Topics links and exit")
    parser.add_argument("--docc-hashes", metavar="GRAPHS", help="print DOCC_HASHES from a symbol-graph directory")
    arguments = parser.parse_args()
    if arguments.docc_hashes:
        print_docc_hashes(arguments.docc_hashes)
        return
    operators = [CombineLatest(), Zip(), Merge()]
    if arguments.topics:
        for op in operators:
            print(f"{op.name}:\n{topics(op)}\n")
        return
    if arguments.check:
        check(operators)
        return
    write(operators, arguments.output_dir or ROOT)


def outputs(operators):
    """Each generated file's path and text."""
    files = [(op.path, source(op)) for op in operators]
    files.append((TEST_PATH, test_source(operators)))
    return files


def write(operators, root):
    for path, text in outputs(operators):
        target = os.path.join(root, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as file:
            file.write(swift_format(text))


def check(operators):
    """Compares what the script writes (formatted) with the repository's files."""
    files = [(path, swift_format(text)) for path, text in outputs(operators)]
    stale = generated_files.stale_files(ROOT, files, SCRIPT)
    generated_files.exit_if_stale(stale, SCRIPT, "Edit the script, not the generated files, then")
    print(f"generated arity overloads are current ({len(files)} files)")


if __name__ == "__main__":
    main()
