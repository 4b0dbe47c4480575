"""Every quote of claims.toml checked against its source text, character for character.

The series the suite reviews is carried in the tree (rfc2016/: the cover letter
and the patches as posted, "RFC NN" of claims.toml).  A quote must occur in
its source whole: a claim's quote is whole sentences (it begins where a
sentence begins and ends where one ends), a defect's quote is a whole line of
its patch.  Whitespace is joined (a quote is one line; the mail wraps it) and
Markdown's code marks and blockquote marks are not characters of the source.
A source the tree does not carry (LWN's article, a later mail, a commit
message) gives "skipped: source not in the tree"; Y2038_QUOTE_SOURCES may name
a folder holding such texts, each named after its source
(e.g. lwn-2016-01-21.md), to check those too.  A row marked partial (only a
part of its sentence is known to the suite) is not held to whole sentences.
"""
import glob
import os
import re

from y2038lab.core import fsio

SERIES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "rfc2016"))
SKIPPED = "skipped: source not in the tree"
_SENTENCE_START = re.compile(r"(^|[.!?:]\s|/\*\s)$")
_SENTENCE_END = re.compile(r"^($|\s\*/|\s*$)")


def source_file(source, extra=None):
    """The file holding SOURCE's text ("RFC 02" -> rfc2016/rfc-02.patch), or None."""
    m = re.fullmatch(r"RFC (\d\d)", source)
    if m:
        found = glob.glob(os.path.join(SERIES, f"rfc-{m.group(1)}.*"))
        return found[0] if found else None
    extra = extra if extra is not None else os.environ.get("Y2038_QUOTE_SOURCES")
    if extra:
        name = re.sub(r"[^a-z0-9]+", "-", source.lower()).strip("-")
        found = glob.glob(os.path.join(extra, f"{name}.*"))
        return found[0] if found else None
    return None


def _paragraphs(text):
    text = re.sub(r"^> ?", "", text, flags=re.M).replace("`", "")
    return [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text)]


def _lines(text):
    """A patch's lines without the diff marker, whitespace joined."""
    return {re.sub(r"\s*\\$", "", re.sub(r"\s+", " ", line[1:] if line[:1] in "+- " else line).strip())
            for line in text.splitlines()}


def check_lines(row):
    """(status, detail) of a defect row's patch lines: each, with its + or - and its tabs, a line of
    one of the patches its source names ("RFC 03, 04" -> rfc2016/rfc-03.patch, rfc-04.patch)."""
    paths = [p for n in re.findall(r"\d\d", row["source"]) for p in glob.glob(os.path.join(SERIES, f"rfc-{n}.*"))]
    if not paths:
        return SKIPPED, f"{row['source']}: no text of it here"
    texts = {p: fsio.read_text(p, "source").splitlines() for p in paths}
    missing = [line for line in row["lines"] if not any(line in t for t in texts.values())]
    if missing:
        return "not found", f"{', '.join(texts)}: no line reads {missing[0]!r}"
    return "ok", ", ".join(texts)


def check(row, kind="claim", extra=None):
    """(status, detail): status "ok", SKIPPED, "not found" or "not whole"."""
    if kind == "defect" and row.get("lines") and not row.get("quote"):
        return check_lines(row)
    quote = row.get("quote", "")
    if not quote:
        return SKIPPED, "no quote (paraphrased)"
    if row.get("checkable") is False:
        return SKIPPED, row.get("checkable_why", "the source is not carried")
    path = source_file(row["source"], extra)
    if path is None:
        return SKIPPED, f"{row['source']}: no text of it here"
    text = fsio.read_text(path, "source")
    if kind == "defect":
        return ("ok", path) if quote.strip() in _lines(text) else ("not found", f"{path}: no line reads {quote!r}")
    for para in _paragraphs(text):
        at = para.find(quote)
        while at >= 0:
            before, after = para[:at], para[at + len(quote):]
            whole = row.get("partial") or (_SENTENCE_START.search(before) and (
                quote[-1] in ".!?" or _SENTENCE_END.match(after)))
            if whole:
                return "ok", path
            at = para.find(quote, at + 1)
        if quote in para:
            return "not whole", f"{path}: ...{para[max(0, para.find(quote) - 40):para.find(quote)]}[{quote}]" \
                                f"{para[para.find(quote) + len(quote):][:40]}..."
    return "not found", f"{path}: the quote does not occur (whitespace joined)"


def check_all(data, extra=None):
    """[(kind, key, status, detail)] for every claim and defect row of claims.toml data."""
    return [(kind, row["key"], *check(row, kind, extra)) for kind in ("claim", "defect") for row in data.get(kind, [])]
