#!/usr/bin/env python3
"""torch-clangd as an editor sees it: LSP over stdio, end to end.

  clangd_lsp_test.py --clangd BIN [--mock-include DIR] [--real-include DIR]

In a temporary project (compile_commands.json, a .clangd that turns the torch-*
checks on, a training loop that never clears its gradients) this starts BIN,
speaks LSP to it like an editor (initialize, initialized, didOpen), and fails
unless
  * a textDocument/publishDiagnostics for the file carries the
    torch-missing-zero-grad warning on the loop, and
  * textDocument/codeAction for that diagnostic offers the quick fix that
    inserts `optimizer.zero_grad();`.
Uses the mock LibTorch headers when they exist, else the real ones. Every wait
is bounded; standard library only.

  clangd_lsp_test.py --clangd BIN --header-layout DIR [--mock-include DIR]

instead opens DIR/train.cpp, whose first line includes DIR/net.h (a model and
training helpers with their bodies, which clangd builds into the preamble), in
a project with DIR's two files, and fails unless the torch-* diagnostics
clangd publishes for train.cpp are exactly the warnings its
`// CHECK-DAG: train.cpp:[[@LINE-N]]:...: warning: ... [torch-X]` lines
expect (the lines test/robustness/header-bodies.test gives FileCheck) and
those of its `// CLANGD: train.cpp:[[@LINE-N]]: ... [torch-X]` lines (a
warning placed in net.h, which clangd shows at its first note in train.cpp).

  clangd_lsp_test.py --clangd BIN --whole-program DIR --summary-tool TIDY
                     --expect LINE:CHECK... [--mock-include DIR]

instead makes a project of DIR's net.h, model.cpp and train.cpp, runs the
summary pass of whole-program mode over model.cpp with TIDY (torch-tidy),
names the summary file in .clangd's CheckOptions (torch-tidy.SummaryFile), and
fails unless the torch-* diagnostics clangd publishes for train.cpp are
exactly the LINE:CHECK pairs given (1-based), each bce/loss warning with its
note in model.cpp among the related information.

  clangd_lsp_test.py --clangd BIN --client-gone [--mock-include DIR]

instead opens a file whose analysis lasts minutes (a training loop after a
constant expression that takes that long to evaluate), and then leaves as an
editor may: once by closing stdin, once by `shutdown` and `exit`, each while
the analysis runs. It fails unless the server ends within CLIENT_GONE_LIMIT
seconds each time, with clangd's exit status (1 without a shutdown request, 0
after one), having said that it did not wait for the analysis.

  clangd_lsp_test.py --clangd BIN --torture FILE... [--mock-include DIR]

instead opens each FILE, one after the other, in one server: a .cpp as it is,
a generator (a Python .test of test/robustness/, run with the LLVM major; one
that prints a configuration when given `config` gets it as its .clang-tidy).
It fails unless clangd publishes diagnostics for every file and is still
running at the end: the pathological code that clang-tidy survives must not
crash the server either, where analyses run on worker threads.
"""
import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

CHECK = "torch-missing-zero-grad"
FIX = "optimizer.zero_grad();"

TRAIN_CPP = """\
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

void train(Net &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y);
    loss.backward();
    optimizer.step();
  }
}
"""
LOOP_LINE = 11  # 0-based line of the `for`

DOT_CLANGD = """\
Diagnostics:
  ClangTidy:
    Add: [torch-*]
"""


class Failure(Exception):
    pass


def headers(args):
    """The mock LibTorch headers when they exist, else the real ones."""
    include = args.mock_include
    if not include or not os.path.isfile(os.path.join(include, "torch", "torch.h")):
        include = args.real_include
    return include


def initialize(server, work, deadline, capabilities):
    """The LSP handshake, with the folder work as the workspace."""
    root = "file://" + work
    rid = server.request("initialize", {
        "processId": os.getpid(), "rootUri": root,
        "workspaceFolders": [{"uri": root, "name": "work"}],
        "capabilities": capabilities})
    server.response(rid, deadline, "the initialize response")
    server.notify("initialized", {})


def stop_with_log(server, log, lines):
    """Stops the server and prints the last lines of its log."""
    server.stop()
    with open(log, errors="replace") as f:
        kept = [l for l in f if "Ignored diagnostic" not in l]
    sys.stderr.write("------------------------------ clangd log (tail)\n%s\n"
                     % "".join(kept[-lines:]))


class Server:
    """One clangd process and the JSON-RPC framing around its stdio."""

    def __init__(self, cmd, cwd, log_path, env=None):
        self.log = open(log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, env=env,
                                     stdout=subprocess.PIPE, stderr=self.log)
        self.inbox = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            body = out.read(length)
            self.inbox.put(json.loads(body.decode("utf-8")))

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        data = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        return rid

    def wait_for(self, accept, deadline, what):
        """Returns the first message for which accept(msg) is true."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out waiting for " + what)
            try:
                msg = self.inbox.get(timeout=left)
            except queue.Empty:
                raise Failure("timed out waiting for " + what)
            if msg is None:
                raise Failure("clangd exited (code %s) while waiting for %s"
                              % (self.proc.poll(), what))
            if "method" in msg and "id" in msg:
                # A request from the server (e.g. window/workDoneProgress/create).
                self.send({"id": msg["id"], "result": None})
                continue
            if accept(msg):
                return msg

    def response(self, rid, deadline, what):
        msg = self.wait_for(lambda m: m.get("id") == rid and "method" not in m,
                            deadline, what)
        if "error" in msg:
            raise Failure("%s failed: %s" % (what, msg["error"]))
        return msg.get("result")

    def stop(self):
        try:
            deadline = time.monotonic() + 10
            rid = self.request("shutdown", None)
            self.response(rid, deadline, "the shutdown response")
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (Failure, OSError, ValueError, subprocess.TimeoutExpired):
            pass  # ValueError: stdin was closed already
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def edits_of(action, uri):
    """The TextEdits a CodeAction makes to uri (changes or documentChanges)."""
    edit = action.get("edit") or {}
    edits = list((edit.get("changes") or {}).get(uri, []))
    for change in edit.get("documentChanges") or []:
        if change.get("textDocument", {}).get("uri") == uri:
            edits += change.get("edits", [])
    return edits


def write_project(folder, include, fast_check_filter, name="train.cpp", text=TRAIN_CPP,
                  flags=()):
    """A project folder: the source name (text), compile_commands.json (with
    flags added) and a .clangd."""
    os.makedirs(folder)
    src = os.path.join(folder, name)
    with open(src, "w") as f:
        f.write(text)
    with open(os.path.join(folder, ".clangd"), "w") as f:
        f.write(DOT_CLANGD)
        if fast_check_filter:
            f.write("    FastCheckFilter: %s\n" % fast_check_filter)
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump([{"directory": folder, "file": src,
                    "arguments": ["c++", "-std=c++17"] + list(flags)
                    + ["-isystem", include, "-c", src]}], f)
    return "file://" + src


def expected_link(args):
    """The codeDescription.href torch-clangd should give the diagnostic."""
    if args.docs_url is not None:
        if "{check}" in args.docs_url:
            return args.docs_url.replace("{check}", CHECK)
        return args.docs_url + CHECK + ".md" if args.docs_url else None
    page = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         "docs", "checks", CHECK + ".md"))
    return "file://" + page


def check_diagnostic(uri, diags, link):
    errors = [d for d in diags if d.get("severity") == 1]
    if errors:
        raise Failure("%s does not parse: %s" % (uri, [d["message"] for d in errors]))
    diag = next(d for d in diags if d.get("code") == CHECK)
    print("  diagnostic: %s:%d: %s" % (diag.get("source"), diag["range"]["start"]["line"] + 1,
                                       diag["message"]))
    if diag["range"]["start"]["line"] != LOOP_LINE:
        raise Failure("diagnostic on line %d, expected %d"
                      % (diag["range"]["start"]["line"] + 1, LOOP_LINE + 1))
    # clangd capitalises the message and may append "(fix available)".
    if "gradients are never cleared" not in diag["message"].lower():
        raise Failure("unexpected message: " + diag["message"])
    # The link goes to torch-tidy's page, not to clang.llvm.org's (which has none).
    href = (diag.get("codeDescription") or {}).get("href")
    print("  link: %s" % href)
    if href != link:
        raise Failure("diagnostic links to %r, expected %r" % (href, link))
    return diag


def run(args, work):
    include = headers(args)
    print("headers: " + include)

    # One project per FastCheckFilter value, each with its own .clangd.
    filters = args.fast_check_filter.split(",")
    uris = {}
    for value in filters:
        uris[write_project(os.path.join(work, value or "default"), include, value)] = value

    log = os.path.join(work, "clangd.log")
    env = dict(os.environ)
    env.pop("TORCH_TIDY_DOCS_URL", None)
    if args.docs_url is not None:
        env["TORCH_TIDY_DOCS_URL"] = args.docs_url
    server = Server([args.clangd, "--log=verbose", "--pch-storage=memory",
                     "--background-index=false"], work, log, env)
    try:
        deadline = time.monotonic() + args.timeout
        initialize(server, work, deadline, {"textDocument": {
            "publishDiagnostics": {"relatedInformation": True},
            "codeAction": {"codeActionLiteralSupport": {
                "codeActionKind": {"valueSet": ["quickfix"]}}}}})
        for uri in uris:
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cpp", "version": 1, "text": TRAIN_CPP}})

        # clangd may publish several times per file (e.g. before and after the
        # preamble); wait until every file had a publication with our diagnostic.
        seen = {uri: [] for uri in uris}
        found = {}

        def record(msg):
            if msg.get("method") == "textDocument/publishDiagnostics":
                uri = msg["params"].get("uri")
                diags = msg["params"]["diagnostics"]
                if uri in seen:
                    seen[uri].append(diags)
                    if any(d.get("code") == CHECK for d in diags):
                        found.setdefault(uri, diags)
            return len(found) == len(uris)

        try:
            server.wait_for(record, deadline, "a %s diagnostic in every file" % CHECK)
        except Failure as e:
            missing = ["FastCheckFilter %r: %d publications, diagnostics %s" % (
                uris[u] or "(default)", len(seen[u]),
                [(d.get("code"), d.get("message")) for ds in seen[u] for d in ds])
                for u in uris if u not in found]
            raise Failure("%s; %s" % (e, "; ".join(missing)))

        for uri, value in uris.items():
            print("FastCheckFilter: %s" % (value or "(default)"))
            diag = check_diagnostic(uri, found[uri], expected_link(args))
            rid = server.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": diag["range"],
                "context": {"diagnostics": [diag], "only": ["quickfix"]}})
            actions = server.response(rid, deadline, "the codeAction response") or []
            fixes = [a for a in actions
                     if any(FIX in e.get("newText", "") for e in edits_of(a, uri))]
            if not fixes:
                raise Failure("no code action inserts %r; got %s" % (
                    FIX, json.dumps(actions)[:2000]))
            print("  code action: %s (%s)" % (fixes[0].get("title"), fixes[0].get("kind")))
            if fixes[0].get("kind") != "quickfix":
                raise Failure("the fix is not a quickfix code action")
            # A quick-fix menu shows the title: a short one, not the whole warning.
            if len(fixes[0].get("title", "")) > 60:
                raise Failure("quick-fix title of %d characters" % len(fixes[0]["title"]))
    except Failure:
        stop_with_log(server, log, 60)
        raise
    server.stop()


# `CHECK-DAG: train.cpp:[[@LINE-N]]:...: warning: ... [torch-X]` (FileCheck's, for
# clang-tidy) and `CLANGD: train.cpp:[[@LINE-N]]: ... [torch-X]` (a warning of
# net.h that clangd shows at its first note in train.cpp).
EXPECT = re.compile(r"(?:CHECK-DAG|CLANGD): train\.cpp:\[\[@LINE-(\d+)\]\]:.*\[(torch-[a-z-]+)\]")


def expected_in(text):
    """{(0-based line, check)} the CHECK-DAG lines of train.cpp expect."""
    out = set()
    for number, line in enumerate(text.splitlines()):
        m = EXPECT.search(line)
        if m:
            out.add((number - int(m.group(1)), m.group(2)))
    return out


def open_expecting(server, work, args, uri, text, expected):
    """Opens uri (train.cpp, with text) after the LSP handshake and waits for a
    publication of its diagnostics with every (0-based line, check) of
    expected; fails unless the file parses and its torch-* diagnostics are
    exactly those. Returns that publication."""
    deadline = time.monotonic() + args.timeout
    initialize(server, work, deadline, {"textDocument": {
        "publishDiagnostics": {"relatedInformation": True}}})
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cpp", "version": 1, "text": text}})

    # clangd may publish before the preamble is built and again after:
    # wait for a publication with every expected warning.
    seen = []

    def torch_diags(msg):
        return {(d["range"]["start"]["line"], d.get("code"))
                for d in msg["params"]["diagnostics"]
                if str(d.get("code", "")).startswith("torch-")}

    def record(msg):
        if (msg.get("method") != "textDocument/publishDiagnostics"
                or msg["params"].get("uri") != uri):
            return False
        seen.append(msg)
        return expected <= torch_diags(msg)

    try:
        msg = server.wait_for(record, deadline,
                              "the %d expected torch-* warnings" % len(expected))
    except Failure as e:
        last = torch_diags(seen[-1]) if seen else set()
        raise Failure("%s; %d publications; missing %s; got %s" % (
            e, len(seen), sorted((l + 1, c) for l, c in expected - last),
            sorted((l + 1, c) for l, c in last)))
    errors = [d["message"] for d in msg["params"]["diagnostics"] if d.get("severity") == 1]
    if errors:
        raise Failure("train.cpp does not parse: %s" % errors)
    got = torch_diags(msg)
    for line, check in sorted(got):
        print("  train.cpp:%d: %s" % (line + 1, check))
    if got != expected:
        raise Failure("unexpected torch-* diagnostics: %s"
                      % sorted((l + 1, c) for l, c in got - expected))
    return msg


def run_header_layout(args, work):
    include = headers(args)
    print("headers: " + include)
    folder = os.path.join(work, "header-layout")
    os.makedirs(folder)
    for name in ("net.h", "train.cpp"):
        shutil.copy(os.path.join(args.header_layout, name), os.path.join(folder, name))
    src = os.path.join(folder, "train.cpp")
    with open(src) as f:
        text = f.read()
    if not text.startswith('#include "net.h"'):
        raise Failure("train.cpp must include net.h first (the preamble)")
    expected = expected_in(text)
    if not expected:
        raise Failure("no CHECK-DAG line for train.cpp in " + src)
    with open(os.path.join(folder, ".clangd"), "w") as f:
        f.write(DOT_CLANGD)
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump([{"directory": folder, "file": src,
                    "arguments": ["c++", "-std=c++17", "-isystem", include, "-I", folder,
                                  "-c", src]}], f)
    uri = "file://" + src
    log = os.path.join(work, "clangd.log")
    server = Server([args.clangd, "--log=verbose", "--pch-storage=memory",
                     "--background-index=false"], work, log)
    try:
        open_expecting(server, work, args, uri, text, expected)
    except Failure:
        stop_with_log(server, log, 60)
        raise
    server.stop()


def run_whole_program(args, work):
    include = headers(args)
    print("headers: " + include)
    folder = os.path.join(work, "whole-program")
    os.makedirs(folder)
    for name in ("net.h", "model.cpp", "train.cpp"):
        shutil.copy(os.path.join(args.whole_program, name), os.path.join(folder, name))
    flags = ["c++", "-std=c++17", "-isystem", include, "-I", folder, "-c"]
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump([{"directory": folder, "file": os.path.join(folder, n),
                    "arguments": flags + [os.path.join(folder, n)]}
                   for n in ("model.cpp", "train.cpp")], f)
    summary = os.path.join(folder, "summary.json")
    env = dict(os.environ, TORCH_TIDY_SUMMARY_OUTPUT=summary)
    proc = subprocess.run([args.summary_tool, "--checks=-*,torchtidy-summary-pass", "--quiet",
                           "-p", folder, os.path.join(folder, "model.cpp")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout)
    if proc.returncode != 0 or not os.path.isfile(summary):
        raise Failure("the summary pass failed (%d): %s" % (proc.returncode, proc.stdout[-2000:]))
    with open(os.path.join(folder, ".clangd"), "w") as f:
        f.write(DOT_CLANGD + "    CheckOptions:\n      torch-tidy.SummaryFile: %s\n" % summary)
    expected = set()
    for item in args.expect:
        line, check = item.split(":", 1)
        expected.add((int(line) - 1, check))
    src = os.path.join(folder, "train.cpp")
    with open(src) as f:
        text = f.read()
    uri = "file://" + src
    model_uri = "file://" + os.path.join(folder, "model.cpp")
    log = os.path.join(work, "clangd.log")
    server = Server([args.clangd, "--log=verbose", "--pch-storage=memory",
                     "--background-index=false"], work, log)
    try:
        msg = open_expecting(server, work, args, uri, text, expected)
        remote = set(args.remote_note)
        for d in msg["params"]["diagnostics"]:
            line = d["range"]["start"]["line"] + 1
            if line not in remote and d.get("code") not in (
                    "torch-bce-on-logits", "torch-loss-activation-mismatch"):
                continue
            if "unstable" in d["message"]:
                continue  # the sigmoid is written in train.cpp
            where = [r["location"]["uri"] for r in d.get("relatedInformation", [])]
            if model_uri not in where:
                raise Failure("no note in model.cpp for train.cpp:%d: %s" % (line, where))
    except Failure:
        stop_with_log(server, log, 60)
        raise
    server.stop()


# A constant expression clang evaluates for minutes (with the step limit
# raised), in the main file after the preamble, then a training loop.
SLOW_CPP = """\
#include <torch/torch.h>

constexpr long spin() {
  long s = 0;
  for (long i = 0; i < 4000000000L; ++i)
    s += i & 1;
  return s;
}
static_assert(spin() > 0, "");

void train(torch::nn::Linear &model, torch::Tensor x, torch::Tensor y) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
  }
}
"""
CLIENT_GONE_LIMIT = 30
GONE_MESSAGE = "exiting without waiting for it"


def run_client_gone(args, work):
    uri = write_project(os.path.join(work, "slow"), headers(args), None, "slow.cpp",
                        SLOW_CPP, ["-fconstexpr-steps=2147483647"])
    for how, status in (("stdin closed", 1), ("shutdown and exit", 0)):
        log = os.path.join(work, "clangd-%d.log" % status)
        server = Server([args.clangd, "--log=verbose", "--pch-storage=memory",
                         "--background-index=false"], work, log)
        try:
            deadline = time.monotonic() + args.timeout
            initialize(server, work, deadline, {})
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cpp", "version": 1, "text": SLOW_CPP}})
            # Leave once the preamble is built: the AST build, and with it the
            # constant expression, is then under way.
            while True:
                with open(log, errors="replace") as f:
                    if "Built preamble" in f.read():
                        break
                if time.monotonic() > deadline or server.proc.poll() is not None:
                    raise Failure("clangd built no preamble for slow.cpp")
                time.sleep(0.2)
            time.sleep(2)
            if how == "shutdown and exit":
                rid = server.request("shutdown", None)
                server.response(rid, deadline, "the shutdown response")
                server.notify("exit", None)
            left = time.monotonic()
            server.proc.stdin.close()
            try:
                code = server.proc.wait(timeout=CLIENT_GONE_LIMIT)
            except subprocess.TimeoutExpired:
                raise Failure("%s: clangd still runs %d s later"
                              % (how, CLIENT_GONE_LIMIT))
            took = time.monotonic() - left
            print("%s: clangd exited with %d after %.1f s" % (how, code, took))
            if code != status:
                raise Failure("%s: exit status %d, expected %d" % (how, code, status))
            server.log.flush()
            with open(log, errors="replace") as f:
                if GONE_MESSAGE not in f.read():
                    raise Failure("%s: clangd did not say it left an analysis "
                                  "running (did the analysis end first?)" % how)
        except Failure:
            stop_with_log(server, log, 40)
            raise
        server.stop()


def torture_inputs(files, folder, major):
    """[(path of a .cpp in a folder of its own, its text)] for the inputs."""
    out = []
    for n, name in enumerate(files):
        sub = os.path.join(folder, "%02d" % n)
        os.makedirs(sub)
        base = os.path.splitext(os.path.basename(name))[0]
        if name.endswith(".cpp"):
            with open(name, errors="replace") as f:
                text = f.read()
        else:
            text = subprocess.run([sys.executable, name, str(major)], check=True,
                                  stdout=subprocess.PIPE).stdout.decode()
            config = subprocess.run([sys.executable, name, "config"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if config.returncode == 0 and config.stdout.startswith(b"Checks:"):
                with open(os.path.join(sub, ".clang-tidy"), "wb") as f:
                    f.write(config.stdout)
        src = os.path.join(sub, base + ".cpp")
        with open(src, "w") as f:
            f.write(text)
        out.append((src, text))
    return out


def run_torture(args, work):
    include = headers(args)
    major = int(re.search(rb"version (\d+)", subprocess.run(
        [args.clangd, "--version"], stdout=subprocess.PIPE).stdout).group(1))
    inputs = torture_inputs(args.torture, work, major)
    with open(os.path.join(work, ".clangd"), "w") as f:
        f.write(DOT_CLANGD)
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.dirname(src), "file": src,
                    "arguments": ["c++", "-std=c++17", "-isystem", include, "-c", src]}
                   for src, _ in inputs], f)
    log = os.path.join(work, "clangd.log")
    server = Server([args.clangd, "--log=info", "--pch-storage=memory",
                     "--background-index=false"], work, log)
    try:
        deadline = time.monotonic() + args.timeout
        initialize(server, work, deadline, {})
        for src, text in inputs:
            uri = "file://" + src
            started = time.monotonic()
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
            msg = server.wait_for(
                lambda m: m.get("method") == "textDocument/publishDiagnostics"
                and m["params"].get("uri") == uri and m["params"].get("version") == 1,
                deadline, "the diagnostics of " + os.path.basename(src))
            torch = [d for d in msg["params"]["diagnostics"]
                     if str(d.get("code", "")).startswith("torch-")]
            print("%s: %d torch-* diagnostics, %.1f s" % (
                os.path.basename(src), len(torch), time.monotonic() - started))
            server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        if server.proc.poll() is not None:
            raise Failure("clangd exited with %s" % server.proc.poll())
    except Failure:
        stop_with_log(server, log, 60)
        raise
    server.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clangd", required=True)
    ap.add_argument("--mock-include", default="")
    ap.add_argument("--real-include", default="/usr/include/torch/csrc/api/include")
    ap.add_argument("--fast-check-filter", default=",Strict,Loose,None",
                    help="comma-separated .clangd FastCheckFilter values to test, one "
                         "project each (empty: no FastCheckFilter line, clangd's default "
                         "Strict, which a clangd that does not know the torch-* checks "
                         "are fast would apply by dropping them)")
    ap.add_argument("--docs-url", default=None,
                    help="run torch-clangd with TORCH_TIDY_DOCS_URL set to this and expect the "
                         "diagnostic's link to follow it (default: unset, a file:// link to "
                         "the source tree's docs/checks page)")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds for the whole session")
    ap.add_argument("--header-layout", default=None,
                    help="a folder with train.cpp and the net.h it includes first: expect "
                         "the torch-* warnings train.cpp's CHECK-DAG lines give, through "
                         "the bodies in net.h (the preamble)")
    ap.add_argument("--whole-program", default=None,
                    help="a folder with net.h, model.cpp and train.cpp: expect the --expect "
                         "warnings in train.cpp through model.cpp's summary")
    ap.add_argument("--summary-tool", default=None,
                    help="torch-tidy, to run the summary pass with (--whole-program)")
    ap.add_argument("--expect", nargs="*", default=[],
                    help="LINE:CHECK pairs expected in train.cpp (--whole-program)")
    ap.add_argument("--remote-note", nargs="*", default=[], type=int,
                    help="lines of train.cpp whose warnings must have a note in model.cpp "
                         "(--whole-program), besides the loss warnings, which always must")
    ap.add_argument("--client-gone", action="store_true",
                    help="leave while a long analysis runs and expect the server to "
                         "end within %d s" % CLIENT_GONE_LIMIT)
    ap.add_argument("--torture", nargs="+", default=None,
                    help="open each of these files (.cpp, or a generator .test) and expect "
                         "their diagnostics and a server still running")
    args = ap.parse_args()
    args.clangd = os.path.abspath(args.clangd)
    if args.mock_include:
        args.mock_include = os.path.abspath(args.mock_include)
    work = os.path.realpath(tempfile.mkdtemp(prefix="torch-clangd-"))
    try:
        if args.torture:
            args.torture = [os.path.abspath(f) for f in args.torture]
            run_torture(args, work)
        elif args.client_gone:
            run_client_gone(args, work)
        elif args.header_layout:
            run_header_layout(args, work)
        elif args.whole_program:
            run_whole_program(args, work)
        else:
            run(args, work)
    except Failure as e:
        sys.stderr.write("clangd_lsp_test.py: FAIL: %s\n" % e)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
