#!/usr/bin/env bash
# Checks the documentation against the repository and the CLI:
#  (a) every relative link in README.md, docs/**/*.md and Benchmarks/**/*.md points at
#      a file or folder that exists, and its #anchor (if any) at a heading of that file
#      (GitHub's heading slugs);
#  (b) every `fovea` command in a ```sh block parses: `fovea SUBCOMMAND --help`
#      succeeds and every --flag on the line appears in that help.
# The convention for (b): commands and synopses go in ```sh blocks (`[--top K]` and
# `a|b` are fine: only the subcommand and the --flags are checked); output and other
# text in ```text or unmarked blocks. A command is any piece of a line (split at &&,
# ||, ;, and a pipe with spaces around it) whose first word is `fovea` or a path
# ending in /fovea.
#
# With --paths (as CI runs it) it also checks (c): every repository path written as code in the prose
# (`Sources/...`, `Kernels/...`, `scripts/...`, `Tests/...`, `Benchmarks/...`,
# `Examples/...`, `Server/...`, `docs/...`, `deploy/...`; placeholders such as <name>,
# * or TARGET skipped) exists.
# Usage: scripts/ci/check-docs.sh [--fovea PATH] [--paths]   (default fovea:
# .build/release/fovea, else .build/debug/fovea, else it builds the release one).
# Prints one "ok: ..." or "FAIL: ..." line per check; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

fovea=""
paths=0
while [ $# -gt 0 ]; do
  case $1 in
    --fovea) fovea=$2; shift 2 ;;
    --paths) paths=1; shift ;;
    *) echo "usage: $0 [--fovea PATH] [--paths]" >&2; exit 64 ;;
  esac
done
if [ -z "$fovea" ]; then
  for candidate in .build/release/fovea .build/debug/fovea; do
    [ -x "$candidate" ] && { fovea=$candidate; break; }
  done
fi
if [ -z "$fovea" ]; then
  swift build -c release --product fovea > /dev/null 2>&1 || { echo "FAIL: could not build fovea (swift build -c release --product fovea)"; exit 1; }
  fovea=.build/release/fovea
fi
[ -x "$fovea" ] || { echo "FAIL: no fovea executable at $fovea"; exit 1; }

files=(README.md)
while IFS= read -r file; do files+=("$file"); done < <(find docs Benchmarks -name '*.md' -not -path '*/.build*' 2>/dev/null | sort)

python3 - "$fovea" "$paths" "${files[@]}" <<'PY'
import os, re, shlex, subprocess, sys, unicodedata
from urllib.parse import unquote

fovea, check_paths, files = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
failed = 0

def report(ok, text):
    global failed
    print(("ok: " if ok else "FAIL: ") + text)
    if not ok:
        failed += 1

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)")

def blocks_and_prose(path):
    """(prose lines with their numbers, fenced blocks as (language, first line, lines))."""
    prose, blocks, fence, block = [], [], None, None
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence, block = match.group(1), (match.group(2).lower(), number + 1, [])
        elif fence is not None and line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
            blocks.append(block)
            fence = None
        elif fence is not None:
            block[2].append(line)
        else:
            prose.append((number, line))
    return prose, blocks

def slug(text):
    """GitHub's heading anchor: lowercase, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", text)                      # inline HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)     # links keep their text
    text = text.strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", "-")

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        found, counts = set(), {}
        prose, _ = blocks_and_prose(path)
        for _, line in prose:
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for explicit in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", line):
                found.add(explicit)
        anchor_cache[path] = found
    return anchor_cache[path]

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")

# (a) links
for path in files:
    prose, _ = blocks_and_prose(path)
    checked = broken = 0
    for number, line in prose:
        text = re.sub(r"(`+)(?:(?!\1).)+\1", "", line)  # no links inside code spans
        targets = INLINE.findall(text)
        reference = REFERENCE.match(text)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):   # http:, https:, mailto:, ...
                continue
            checked += 1
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), unquote(file_part))) if file_part else path
            if not os.path.exists(resolved):
                broken += 1
                report(False, f"{path}:{number}: link '{target}': {resolved} does not exist")
            elif anchor and not os.path.isdir(resolved) and resolved.endswith(".md") and anchor not in anchors(resolved):
                broken += 1
                report(False, f"{path}:{number}: link '{target}': no heading with the anchor '#{anchor}' in {resolved}")
    if checked and not broken:
        report(True, f"{path}: {checked} relative link(s) resolve")

# (b) commands
help_cache = {}
def help_text(subcommand):
    if subcommand not in help_cache:
        args = [fovea] + ([subcommand] if subcommand else []) + ["--help"]
        result = subprocess.run(args, capture_output=True, text=True)
        help_cache[subcommand] = result.stdout + result.stderr if result.returncode == 0 else None
    return help_cache[subcommand]

def commands(lines):
    """(line offset, command text) for each fovea command in a sh block."""
    joined, start, pending = [], 0, ""
    for offset, line in enumerate(lines):
        if not pending:
            start = offset
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        joined.append((start, pending))
        pending = ""
    if pending:
        joined.append((start, pending))
    for offset, line in joined:
        line = re.sub(r"(^|\s)#.*$", "", line)                    # comments
        for piece in re.split(r"&&|\|\||;|\s\|\s", line):
            words = piece.split()
            if words and (words[0] == "fovea" or words[0].endswith("/fovea")):
                yield offset, " ".join(words)

# The subcommands the root help lists ("  name   abstract" under SUBCOMMANDS:):
# `fovea unknown --help` prints the root help and succeeds, so success alone proves nothing.
root_help = help_text("") or ""
listed = root_help.split("SUBCOMMANDS:", 1)[1] if "SUBCOMMANDS:" in root_help else ""
subcommands = set(re.findall(r"^  ([a-z][\w-]*)(?:\s|$)", listed, re.M)) | {"help"}
if not subcommands - {"help"}:
    report(False, f"`{fovea} --help` lists no subcommands")

command_count = 0
for path in files:
    _, blocks = blocks_and_prose(path)
    for language, first, lines in blocks:
        if language not in ("sh", "bash", "shell", "console"):
            continue
        for offset, command in commands(lines):
            command_count += 1
            words = command.split()
            subcommand = words[1] if len(words) > 1 and re.match(r"^[a-z][\w-]*$", words[1]) else ""
            where = f"{path}:{first + offset}"
            usage = help_text(subcommand) if not subcommand or subcommand in subcommands else None
            if usage is None:
                report(False, f"{where}: no subcommand '{subcommand}' in `fovea --help`, or its --help fails ({command})")
                continue
            flags = sorted(set(re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", command)))
            unknown = [flag for flag in flags if not re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", usage)]
            name = f"fovea {subcommand}".strip()
            if unknown:
                report(False, f"{where}: {name} has no {', '.join(unknown)} (in: {command})")
            else:
                report(True, f"{where}: {name}" + (f" {' '.join(flags)}" if flags else "") + " parses")
# (c) repository paths written as code
PATH_SPAN = re.compile(r"`((?:Sources|Kernels|scripts|Tests|Benchmarks|Examples|Server|docs|deploy)/[^`\s]*)`")
def is_placeholder(path):
    return any(c in path for c in "<>*{}…") or "..." in path or any(
        part.isupper() and len(part) > 1 for part in re.split(r"[/._-]", path))
if check_paths:
    for path in files:
        prose, _ = blocks_and_prose(path)
        missing = []
        for number, line in prose:
            for written in PATH_SPAN.findall(line):
                written = written.rstrip(".,:;)")
                if not is_placeholder(written) and not os.path.exists(written):
                    missing.append((number, written))
        for number, written in missing:
            report(False, f"{path}:{number}: `{written}` does not exist")
        if not missing:
            report(True, f"{path}: every repository path written as code exists")

if command_count == 0:
    report(False, "no fovea command found in any ```sh block: the check found nothing to check")
sys.exit(1 if failed else 0)
PY
