#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""verdict_test.py - the verdict (report/verdict.py, claims.py, runtime.py,
claims.toml) on committed fixtures.

tests/data/stats-fixture.json is a trimmed real development run (never to be
quoted); tests/data/layouts/ holds copies of sizes-<abi>.csv rows as
`scripts/lab pahole` wrote them; tests/data/cost-handmade.csv and
tests/data/churn/handmade.{csv,md} are hand-made round figures in the cost and
churn reports' layouts.  Checked: each claim's ruling follows from those
figures and from nothing else (the same words with or without a timing run),
every claim is sourced, every test a ruling or defect names exists, absent
inputs give "not measurable here", VERDICT.txt stays within 80 columns, and a
ruling whose figure its report does not print is caught with both lines.
"""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import types
import unittest
import unittest.mock

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from y2038lab.core import paired, reprs  # noqa: E402
from y2038lab.report import claims, runtime, verdict  # noqa: E402

ROOT = os.path.join(here, "..")
DATA = os.path.join(here, "data")
RUN = os.path.join(DATA, "stats-fixture.json")
LAYOUTS = os.path.join(DATA, "layouts")
COST = os.path.join(DATA, "cost-handmade.csv")
CHURN = os.path.join(DATA, "churn")


def by_key(ev):
    return {r.key: r for r in verdict.rulings(ev)}


class Claims(unittest.TestCase):
    def test_every_claim_sourced(self):
        data = claims.load()
        for row in data["claim"]:
            self.assertTrue(row["quote"] or row.get("paraphrase"), row["key"])
            self.assertRegex(row["source"],
                             r"^(RFC \d\d|LWN 2016-01-21|commit [0-9a-f]{12}, v[\d.]+|y2038 list, \d{4}-\d\d-\d\d, reply "
                             r"to RFC \d\d|y2038 list and linux-kernel, \d{4}-\d\d-\d\d \(\d\d:\d\d EST\), reply to RFC "
                             r"\d\d, https://\S+|linux-fsdevel, \d{4}-\d\d-\d\d, \".+\")$")
            if not re.fullmatch(r"RFC \d\d|LWN 2016-01-21", row["source"]):  # a source the tree does not carry
                self.assertIs(row.get("checkable"), False, row["key"])
            self.assertNotIn("cost nothing", row["quote"], "a claim the seeds do not make")
        self.assertIn("adopted in v6.11", data["headline"])
        # LWN's own sentences are the reporter's, never rendered as the developer's words
        direct = {row["key"] for row in data["claim"] if row["source"].startswith("LWN") and not row.get("reported_by")}
        self.assertEqual(direct, {"chinner_mainly", "bergmann_30", "chinner_sign"})
        for row in data["claim"]:
            if row.get("reported_by"):
                self.assertRegex(verdict.source_of(row), r"^LWN 2016-01-21 \(Jake Edge\), (reporting|following "
                                 r"the point of|on the series of) ", row["key"])

    def test_named_tests_exist(self):
        data = claims.load()
        named = [t for row in data["claim"] for t in row.get("tests", ())] + [d["test"] for d in data["defect"]]
        for ref in named:
            if ref.startswith("none in the suite"):
                continue
            for part in ref.split("; "):
                path, _, case = part.partition(": ")
                if path.startswith("CTest "):
                    name = path.split()[1]
                    path, case = os.path.join("tests", "CMakeLists.txt"), f"NAME {name}"
                    if name.startswith("fs_expiry"):
                        case = f"y2038_cli_test({name}"
                with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                    self.assertIn(case, re.sub(r'"\s*\n\s*"', "", f.read()), ref)  # C literals joined


class FullInputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ev = verdict.gather([RUN], LAYOUTS, COST, CHURN)
        cls.rows = by_key(cls.ev)

    def test_one_row_per_claim_in_order(self):
        self.assertEqual([r.key for r in verdict.rulings(self.ev)], [c["key"] for c in claims.load()["claim"]])

    def test_rfc_layout_on_the_2016_body_with_today_beside(self):
        r = self.rows["rfc_ram"]
        # decided on slab memory on the 64-bit ABIs RFC 02 argues for; 32-bit apart, against the 2016 status quo
        self.assertEqual(r.ruling, "depends on the slab on the 64-bit ABIs RFC 02 argues for: 2 of 4 cache/scenario "
                                   "pairs hold 10^6 inodes in less memory, at most -3.4 % (x86_64 inode_cache)")
        self.assertNotIn("armhf", r.ruling)
        self.assertIn("x86_64 544 vs 560 B (-16 B)", r.figures[2])
        self.assertIn("armhf 368 B against 384 B; the 2016 status quo (timespec) 360 B, so +8 B", r.beside[2])
        self.assertIn("armhf inode_cache -18.6 MiB (-4.8 %)", r.beside[0])
        self.assertIn("i386 408 vs 400 B (+8 B)", r.beside[3])
        self.assertIn("armhf 368 B against 384 B; the 2016 status quo (timespec) 360 B, so +8 B", r.detail)

    def test_growth_per_layout_on_32_bit_only(self):
        r = self.rows["bergmann_growth"]
        self.assertEqual(r.ruling, "supported for the layouts of 2016: each grows the 32-bit inode (+8 to +24 B)")
        self.assertIn("Later layouts given apart: multigrain +8/+12 B, ktime +0 B.", r.detail)
        self.assertNotIn("x86_64", " ".join(r.figures + r.beside + [r.ruling]))
        self.assertIn("i386 v6 (392 B with the 32-bit timespec): timespec64 +8 B, packed12 +8 B, scalar +16 B",
                      "\n".join(r.beside))

    def test_saving_arithmetic_checked(self):
        r = self.rows["bergmann_saving"]
        self.assertEqual(r.ruling, "not decidable by measurement (\"significant\" is a judgement): the saving is 2.9 % "
                                   "(16 B) of a 2016 struct inode on the 64-bit ABIs (x86_64: 544 vs 560 B), at most 4.2 % "
                                   "(16 B) anywhere (armhf: 368 vs 384 B); the suite marks below 5 % as small")
        self.assertTrue(r.detail.startswith("3 x (16 - 12) = 12 B is not what the compiler gives: armhf -16 B"))

    def test_instruction_counts_decide(self):
        inline = self.rows["rfc_inline"]
        self.assertIn("an inline function evaluates its argument once, RFC 03's setter macro twice (D1)", inline.ruling)
        self.assertIn("x86_64 5 -> 5, i686 11 -> 11", inline.figures[0])
        self.assertIn("not the form: the same on every ABI counted", inline.detail)
        self.assertIn("+16 to +19 instructions per store (x86_64 5 -> 21, i686 11 -> 30)",
                      self.rows["rfc_setter_check"].detail)
        # LWN reports a proposal ("Start by ensuring ..."): counts describe it, they do not support it
        self.assertEqual(self.rows["chinner_not_huge"].ruling, "a proposal, not a claim (in 2016 both sides were struct "
                                                               "timespec: empty by construction); on a timespec64 inode "
                                                               "the conversion runs the instructions of a plain get on "
                                                               "x86_64, not on i686")
        self.assertIn("x86_64 5 -> 5, i686 11 -> 13", self.rows["chinner_not_huge"].figures[0])
        self.assertIn("i686 66 -> 48", self.rows["clamp_first"].detail)

    def test_churn_rulings_agree_with_the_churn_report(self):
        self.assertEqual(self.rows["bergmann_30"].ruling, "refuted on both readings: 2 (strict) to 3 (wide) file systems")
        self.assertIn("handmade: 2 of 3 file systems on the strict reading, 3 counting copies",
                      self.rows["bergmann_30"].figures[0])
        ruling = self.rows["chinner_mainly"].ruling
        self.assertTrue(ruling.startswith("not mainly: setattr/getattr are 4 of 16 (25.0 %) of the file systems' "
                                          "boundary sites on handmade"), ruling)
        self.assertIn("all boundary sites: 8 of 24 (33.3 %)", self.rows["chinner_mainly"].beside[-1])
        self.assertNotIn("refuted", ruling)  # a share of one category does not refute a judgement of size
        self.assertEqual(verdict.contradictions(verdict.rulings(self.ev)), [])

    def test_multigrain_without_paired_measurement(self):
        r = self.rows["multigrain"]
        self.assertIn("a fine-grained clock only after a query", r.ruling)
        self.assertIn("reads no fine-grained clock", r.detail)
        self.assertIn("queried-flag bookkeeping", r.detail)
        self.assertEqual(r.figures, ["host timing not measurable here: no paired accessor timespec64~multigrain in "
                                     "this run"] * 2 + ["host timing not measurable here: no paired accessor "
                                                        "set_ctime_current~set_ctime_current_queried in this run"])

    def test_at_most_three_deciding_figures(self):
        for r in self.rows.values():
            self.assertLessEqual(len(r.figures), 3, r.key)

    def test_rulings_do_not_move_with_the_timing_run(self):
        bare = by_key(verdict.gather([], LAYOUTS, COST, CHURN))
        for key, r in self.rows.items():
            if claims.load()["claim"][list(self.rows).index(key)]["evidence"] not in ("timing", "counts"):
                self.assertEqual(r.ruling, bare[key].ruling, key)
        self.assertEqual([r.ruling for r in verdict.rulings(self.ev)], [r.ruling for r in self.rows.values()])

    def test_text_is_mail_ready(self):
        text = verdict.text(self.ev, {"Machine": "vm", "Commit": "0123456789ab"})
        self.assertTrue(all(len(line) <= 80 for line in text.splitlines()), text)
        self.assertIn("    Commit: 0123456789ab", text.splitlines()[:8])
        self.assertEqual(len(re.findall(r"^\d+\. ", text, re.M)), len(claims.load()["claim"]))
        self.assertEqual(len(re.findall(r"^D\d+\. ", text, re.M)), len(claims.load()["defect"]))

    def test_markdown_rows_are_well_formed(self):
        text = verdict.section(self.ev)
        table = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| claim")]
        self.assertEqual(len(table), len(claims.load()["claim"]))
        for line in table:
            self.assertEqual(len(line.replace("\\|", "").strip("|").split("|")), 4, line)
        self.assertEqual(len([x for x in verdict.summary_of(self.ev).splitlines() if x.startswith("- ")]),
                         len(table))


class CommittedReports(unittest.TestCase):
    """The rulings of issue 32 held to the committed reports (reports/churn, reports/layouts, reports/cost),
    each expected figure computed here from the report's own CSV, never typed."""

    REPORTS = os.path.join(ROOT, "reports")

    @classmethod
    def setUpClass(cls):
        cls.ev = verdict.gather([], os.path.join(cls.REPORTS, "layouts"), os.path.join(cls.REPORTS, "cost", "cost.csv"),
                                os.path.join(cls.REPORTS, "churn"))
        cls.rows = by_key(cls.ev)

    def churn(self, tree="linux-4.4.155"):
        import csv
        with open(os.path.join(self.REPORTS, "churn", f"{tree}.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        return [r for r in rows if r["fs"] != "TOTAL"], next(r for r in rows if r["fs"] == "TOTAL")

    def test_chinner_mainly_for_file_systems_alone(self):
        rows, _ = self.churn()

        def share(keep):
            part = [r for r in rows if keep(r)]
            sg = sum(int(r["setattr_sites"]) + int(r["getattr_sites"]) for r in part)
            b = sum(int(r["boundary_sites"]) for r in part)
            return sg, b, b - sum(int(r["member_accesses"]) for r in part)

        def pct(a, b):
            return f"{100.0 * a / b:.1f} %"
        no_vfs = share(lambda r: r["kind"] == "filesystem")                      # no VFS, no kernfs
        alone = share(lambda r: r["kind"] == "filesystem" and r["fs"] != "nfsd")  # nfsd neither
        r = self.rows["chinner_mainly"]
        text = "\n".join([r.ruling, r.detail] + r.figures + r.beside)
        # the fair (timespec64) reading of file systems alone leads the ruling
        self.assertTrue(r.ruling.startswith(f"not mainly: setattr/getattr are {alone[0]} of {alone[2]} "
                                            f"({pct(alone[0], alone[2])}) of the file systems' boundary sites on "
                                            "linux-4.4.155, even with tv_sec/tv_nsec accesses compiling unchanged"),
                        r.ruling)
        for sg, b, fair in (no_vfs, alone):
            self.assertIn(f"{sg} of {b} ({pct(sg, b)})", text)
            self.assertIn(f"{sg} of {fair} ({pct(sg, fair)})", text)
        self.assertIn("nfsd (filesystem,", r.detail)
        self.assertIn("kernfs (library,", r.detail)

    def test_bergmann_30_not_decided(self):
        _, total = self.churn()
        self.assertEqual(self.rows["bergmann_30"].ruling, f"not decided: {total['bergmann_fs']} strict to "
                                                          f"{total['bergmann_wide_fs']} wide, nfsd included")

    def test_ram_rulings_lead_with_64_bit(self):
        ram, saving = self.rows["rfc_ram"], self.rows["bergmann_saving"]
        for abi in ("armhf", "i386"):
            self.assertNotIn(abi, ram.ruling)
        self.assertIn("the 64-bit ABIs RFC 02 argues for", ram.ruling)
        for cache in ("fat_inode_cache", "cifs_inode_cache"):
            self.assertIn(cache, ram.figures[0])
        self.assertTrue(saving.ruling.startswith("not decidable by measurement (\"significant\" is a judgement): the "
                                                 "saving is 2.9 % (16 B) of a 2016 struct inode on the 64-bit ABIs"),
                        saving.ruling)
        for r in self.rows.values():  # nothing says v6.11 "took" a saving
            self.assertNotIn("took the saving", r.claim["mainline"], r.key)
        v6 = [x for x in ram.beside if x.startswith("body v6, 64-bit, slab memory")]
        self.assertTrue(v6)  # what v6.11's 8 B give in the slab is shown, whatever it is
        self.assertIn("body v6 slab figure beside", ram.claim["mainline"])

    def test_reorganize_against_packing(self):
        r = self.rows["chinner_premature"]
        # i386 saves nothing either way: neither supported nor refuted there
        self.assertEqual(r.ruling.split(":")[0], "refuted on aarch64, riscv64, x86_64, supported on armhf; nothing "
                                                 "to save either way on i386")
        self.assertIn("aarch64 reordering +0 B, packing -16 B", r.figures[0])
        self.assertIs(r.claim["checkable"], False)
        self.assertIn("(not checkable in the tree)", verdict.source_of(r.claim))

    def test_setter_ruling_says_what_the_rfc_code_does(self):
        r = self.rows["rfc_setter_check"]
        self.assertTrue(r.ruling.startswith("refuted for the setattr path"), r.ruling)
        self.assertIn("not RFC 03's macro", r.detail)
        self.assertIn("keeps a valid tv_nsec", r.detail)  # the v5.4 contrast

    def test_one_word_ruling_carries_the_range_objection(self):
        torn = claims.load()["claim"][[c["key"] for c in claims.load()["claim"]].index("torn")]
        for key, words in torn["words"].items():
            self.assertIn("2262", words, key)
        self.assertIn("Darrick Wong", claims.load()["headline"] + " ".join(h["what"] for h in claims.load()["history"]))

    def test_series_rulings(self):
        self.assertIn("cifs: RFC 05, 09; fat: RFC 06, 10; ext4: RFC 07, 11", self.rows["cover_single_patch"].ruling)
        rows, _ = self.churn()
        named = [r["fs"] for r in rows if r["kind"] == "filesystem" and int(r["reads"]) + int(r["writes"]) > 0]
        left = [f for f in named if f not in ("cifs", "fat", "ext4")]
        self.assertIn(f"{len(left)} of {len(named)} file systems name them", self.rows["chinner_xfs"].ruling)
        self.assertIn("xfs among them", self.rows["chinner_xfs"].ruling)

    def test_rulings_of_the_series_own_lines(self):
        """LWN's inode_timespec, its "first seven" and RFC 06's 2038 claim, ruled on rfc2016/ itself."""
        alias, twelve, first, fat = (self.rows[k] for k in ("lwn_alias", "lwn_12_bytes", "lwn_first_seven",
                                                             "rfc06_2038"))
        self.assertTrue(alias.ruling.startswith("refuted by RFC 02: inode_timespec is no new structure but a "
                                                "#define"), alias.ruling)
        self.assertIn('"+#define inode_timespec timespec64"', alias.figures[0])
        self.assertTrue(twelve.ruling.startswith("refuted as worded"), twelve.ruling)
        subjects = claims.series_subjects(verdict.quotes.SERIES)
        fs = [n for n in range(1, 8) if re.match(r"fs: \w+: ", subjects[n])]
        self.assertEqual(fs, [5, 6, 7])  # computed from the cover letter, not typed into the ruling
        self.assertIn(", ".join(f"RFC {n:02d} ({subjects[n].split(':')[1].strip()})" for n in fs), first.ruling)
        self.assertIn("RFC 01-04", first.ruling)
        self.assertTrue(fat.ruling.startswith("refuted"), fat.ruling)
        self.assertIn("(D20)", fat.ruling)
        # every line a ruling quotes is held to its patch by `verdict --check`
        for r in (alias, twelve, fat):
            self.assertTrue(r.sources and all(p.endswith(".patch") for p, _ in r.sources), r.key)
        self.assertEqual(verdict.contradictions([alias, twelve, fat]), [])

    def test_a_line_not_in_the_series_is_not_measurable(self):
        row = dict(claims.load()["claim"][[c["key"] for c in claims.load()["claim"]].index("lwn_alias")])
        row["patch_lines"] = [["RFC 02", "+#define inode_timespec packed12"]]
        r = claims.rule(row, self.ev, verdict.RULES)
        self.assertTrue(r.ruling.startswith("not measurable here: not a line of the series as posted"), r.ruling)

    def test_valid_timestamps_refuted_as_posted(self):
        r = self.rows["rfc_valid"]
        self.assertTrue(r.ruling.startswith("refuted as posted"), r.ruling)
        for d in ("(D8)", "(D15)", "(D2)"):
            self.assertIn(d, r.ruling)

    def test_slab_counts_identical_abis_once(self):
        r = self.rows["rfc_ram"]
        m = re.search(r"(\d+) of (\d+) cache/scenario pairs \((\d+) of (\d+) distinct", r.ruling)
        self.assertTrue(m, r.ruling)
        n, total, dn, dtotal = map(int, m.groups())
        lp64 = [abi for abi in ("aarch64", "riscv64", "x86_64") if abi in r.ruling or abi in r.figures[0]]
        self.assertLessEqual(dn, n)
        self.assertEqual(total, dtotal * len(lp64))  # the three 64-bit ABIs lay struct inode out alike

    def test_mailed_text(self):
        text = verdict.text(self.ev, {"Machine": "vm", "Commit": "0123456789ab"})
        self.assertTrue(all(len(line) <= 80 for line in text.splitlines()))
        for row in claims.load()["claim"]:  # no internal key reaches the mail
            if "_" in row["key"]:
                self.assertNotIn(row["key"], text)
        for line in re.findall(r"not measurable here \(x[\d.]+ \[([\d.]+), ([\d.]+)\]", text):
            self.assertTrue(float(line[0]) <= 1 <= float(line[1]), line)  # an interval excluding 1 is a difference
        self.assertEqual(text.count("sizes checked against a kernel"), 1)  # stated once
        for h in claims.load()["history"]:
            self.assertTrue(h["link"].startswith("http") if h["verified"] else not h["link"], h["date"])
        self.assertNotIn("Linus, 2023", text)


class Facts(unittest.TestCase):
    """Where sizes-<abi>.csv carries the representations' facts (origin, range), rules use them."""

    def test_safe_by_range_and_named_by_origin(self):
        sizes = {}
        for abi in ("i386", "x86_64"):
            for repr_name, size, top in (("timespec", 344, 2**31 - 1), ("timespec64", 356, 9),
                                         ("scalar", 356, 2**63 - 1), ("wide", 360, 2**32 - 1)):
                facts = reprs.Repr(repr_name, f"origin of {repr_name}", (0, 0), (top, 999999999), False, False)
                sizes[(abi, "v4_4", repr_name)] = {"size": size, "holes": 0, "padding": 0, "reorg_saves": 0,
                                                   "facts": facts}
        ev = claims.Evidence(sizes=sizes)
        growth = by_key(ev)["bergmann_growth"]
        self.assertEqual(growth.figures, ["i386 v4_4 (344 B with the 32-bit timespec): scalar +12 B, wide +16 B"])
        self.assertIn("scalar (origin of scalar) vs timespec64 (origin of timespec64)",
                      by_key(ev)["bergmann_saving"].figures[0])


class KernelCheck(unittest.TestCase):
    def test_coverage_of_the_size_rulings(self):
        tmp = tempfile.mkdtemp()
        try:
            with open(os.path.join(tmp, "kernel-check.csv"), "w", encoding="utf-8") as f:
                f.write("tree,version,abi,body,repr,identical,kernel_size\nt,4.4.155,x86_64,v4_4,timespec,yes,560\n"
                        "t,4.4.155,i386,v4_4,timespec,yes,344\nt,6.18.2,x86_64,v6,scalar,no,608\n")
            for name in os.listdir(LAYOUTS):
                shutil.copy(os.path.join(LAYOUTS, name), tmp)
            ev = verdict.gather([], tmp)
            ram = by_key(ev)["rfc_ram"]
            covers = claims.checked_line(ev)
        finally:
            shutil.rmtree(tmp)
        self.assertIn("sizes checked against a kernel: replica = Linux 4.4.155 (v4_4/timespec) on x86_64, i386; "
                      "replica differs from Linux 6.18.2 (v6/scalar) on x86_64", covers)
        self.assertIn("body v6: the replica differs from the kernel it models (kernel-check): Linux 6.18.2 with "
                      "scalar is x86_64 608 B", ram.beside)
        self.assertEqual("sizes checked against a kernel: unchecked", claims.checked_line(verdict.gather([], LAYOUTS)))
        self.assertNotIn("checked against a kernel", ram.covers)  # stated once, in the verdict's head


class Contradiction(unittest.TestCase):
    def test_a_ruling_against_its_report_is_quoted(self):
        tmp = tempfile.mkdtemp()
        try:
            for name in os.listdir(CHURN):
                shutil.copy(os.path.join(CHURN, name), tmp)
            with open(os.path.join(tmp, "history-v4.17-v4.18.csv"), "w", encoding="utf-8") as f:
                f.write("fs,predicted,changed\n")  # lab churn OLD NEW: not a tree's sites, not read
            md = os.path.join(tmp, "handmade.md")
            with open(md, encoding="utf-8") as f:
                text = f.read().replace("does not hold for the wide one", "holds for the wide one")
                text = text.replace("8 of 24 boundary sites (33.3 %)", "8 of 24 boundary sites (60.0 %)")
            with open(md, "w", encoding="utf-8") as f:
                f.write(text)
            bad = verdict.contradictions(verdict.rulings(verdict.gather([], LAYOUTS, COST, tmp)))
        finally:
            shutil.rmtree(tmp)
        self.assertEqual(len(bad), 2, bad)
        self.assertIn("restates: setattr and getattr sites are 8 of 24 boundary sites (33.3 %)", bad[0])
        self.assertIn("(60.0 %)", bad[0])
        self.assertIn("restates: it does not hold on this tree for the strict reading and does not hold", bad[1])
        self.assertIn("prints: - **Bergmann**", bad[1])


class MissingInputs(unittest.TestCase):
    def test_nothing_given_rules_nothing(self):
        for r in verdict.rulings(verdict.gather()):
            if r.claim["evidence"] not in ("tests", "series") and r.key != "multigrain":
                self.assertTrue(r.ruling.startswith("not measurable here"), f"{r.key}: {r.ruling}")


class Paired(unittest.TestCase):
    """core.paired's interface (comparisons, resolution), with known answers."""

    def fake(self, status, lo=1.4, hi=1.6):
        pair = types.SimpleNamespace(
            name="paired/accessor/set_mtime~rfc_set_mtime/v6/scalar/manual_time", family="accessor",
            operation="rfc_set_mtime", body="v6", a="set_mtime", b="rfc_set_mtime", where="scalar", kind="compare",
            status=status, lo=lo, hi=hi, control=0.02,
            text=lambda: f"x1.5000 [{lo:.4f}, {hi:.4f}], p < 0.001, n = 10: {status}")
        off = types.SimpleNamespace(body="v6", where="", ratio=1.05, true_ratio=1.0625, lo=1.04, hi=1.055, p=0.001)
        return types.SimpleNamespace(comparisons=lambda run: [pair], Controls=paired.Controls,
                                     controls=lambda run, pairs=None: {"accessor": paired.Controls("accessor", [], [off])})

    def rows(self, module):
        run = types.SimpleNamespace(abi="x86_64", records={}, context={"host_name": "h", "num_cpus": 2, "date": "2026"})
        saved = runtime._paired
        runtime._paired = lambda: module
        try:
            return by_key(claims.Evidence([run], cost=verdict.evidence.read_cost(COST)))
        finally:
            runtime._paired = saved

    def test_a_timing_is_a_figure_beside_never_the_ruling(self):
        resolved = self.rows(self.fake("difference"))["rfc_setter_check"]
        unresolved = self.rows(self.fake("within its negative control's reach"))["rfc_setter_check"]
        self.assertEqual(resolved.ruling, unresolved.ruling)
        self.assertIn("paired accessor set_mtime~rfc_set_mtime v6 scalar: x1.5000 [1.4000, 1.6000]",
                      resolved.beside[-1])
        self.assertIn("(beyond its negative control's reach +-2.00%; this run's positive control (v6) is -1.18% off "
                      "its nominal ratio)", resolved.beside[-1])
        # an interval that excludes 1 but stays within the control's reach is a difference not resolved, not "not measurable"
        self.assertIn("a difference within its negative control's reach, not resolved (x1.5000", unresolved.beside[-1])
        wide = self.rows(self.fake("no difference detected", lo=0.9, hi=1.6))["rfc_setter_check"]
        self.assertIn("not measurable here (x1.5000", wide.beside[-1])
        self.assertIn("its negative control reaches +-2.00%; a difference up to 60.0% is not excluded", wide.beside[-1])


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def main(self, *args):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), \
                unittest.mock.patch.object(sys, "argv", ["y2038lab verdict"]):
            rc = verdict.main(list(args))
        return rc, err.getvalue(), out.getvalue()

    def test_writes_section_summary_and_text(self):
        paths = [os.path.join(self.tmp, n) for n in ("v.md", "s.md", "VERDICT.txt")]
        rc, _, _ = self.main("--json", RUN, "--sizes", LAYOUTS, "--out", paths[0], "--summary", paths[1],
                             "--text", paths[2])
        self.assertEqual(rc, 0)
        with open(paths[0], encoding="utf-8") as f:
            self.assertTrue(f.read().startswith("## Verdict\n"))
        self.assertTrue(all(os.path.getsize(p) > 0 for p in paths))

    def test_check(self):
        rc, _, out = self.main("--sizes", LAYOUTS, "--cost", COST, "--churn", CHURN, "--check")
        self.assertEqual(rc, 0, out)

    def test_bad_inputs_fail_in_one_line_and_write_nothing(self):
        out = os.path.join(self.tmp, "v.md")
        broken = os.path.join(self.tmp, "broken.json")
        with open(broken, "w") as f:
            f.write("{ not json")
        bad_churn = os.path.join(self.tmp, "churn")
        os.mkdir(bad_churn)
        with open(os.path.join(bad_churn, "t.csv"), "w") as f:
            f.write("fs,reads\next4,1\n")
        for args in [("--json", broken), ("--sizes", os.path.join(self.tmp, "absent")), ("--churn", bad_churn),
                     ("--cost", os.path.join(self.tmp, "absent.csv"))]:
            rc, err, _ = self.main(*args, "--out", out)
            self.assertEqual(rc, 2, args)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertTrue(err.startswith("y2038lab verdict: error: "), err)
            self.assertFalse(os.path.exists(out), f"{args}: wrote {out}")


if __name__ == "__main__":
    unittest.main()
