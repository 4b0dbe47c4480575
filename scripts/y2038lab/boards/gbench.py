"""Google Benchmark for a target ABI, built from Debian's own source package.

Debian 12 ships libbenchmark only as a shared library (no libbenchmark.a) and not at all for
riscv64, so a board bundle builds Google Benchmark 1.7.1 itself, from `apt-get source
benchmark=1.7.1-1` (the source of the host's libbenchmark-dev, Debian's patches applied), with the
ABI's cross g++ and the flags Debian's own build uses (dpkg-buildflags for that architecture,
hardening=+all, LTO off), static, into a cache: build/gbench/src/benchmark-1.7.1/ (the unpacked
source package), build/gbench/<abi>/ (the install prefix: lib/libbenchmark.a, lib/cmake/benchmark,
include/) and its y2038-gbench.txt (what was built, how: the cache key).

Two deviations from Debian's rules, both needed for a static library on a board:
BUILD_SHARED_LIBS=OFF and BENCHMARK_ENABLE_LTO=OFF (LTO objects in an archive would need the cross
gcc-ar and a matching compiler at link time); and Google Benchmark's own tests are not built (they
need GoogleTest for the target).  The fetch needs a deb-src entry: as root, one for bookworm is
added to /etc/apt/sources.list.d/ when none is configured.
"""
import os
import shutil
import subprocess
import tempfile

from y2038lab.core import fsio
from y2038lab.core.fsio import InputError

GBENCH_VERSION = "1.7.1"
DEBIAN_VERSION = "1.7.1-1"
SOURCES_FILE = "/etc/apt/sources.list.d/y2038lab-deb-src.sources"
SOURCES_TEXT = """\
# Added by the y2038 lab (scripts/lab bundle): Debian's source packages, for
# `apt-get source benchmark` (Google Benchmark built for each board ABI).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
BUILD_MAINT_OPTIONS = "hardening=+all optimize=-lto"


def log(message):
    print(f"{fsio.prog()} bundle: {message}", flush=True)


def source_indexed():
    """True when apt knows the source package benchmark 1.7.1-1."""
    res = subprocess.run(["apt-cache", "showsrc", "benchmark"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return res.returncode == 0 and f"\nVersion: {DEBIAN_VERSION}\n" in "\n" + res.stdout


def ensure_deb_src():
    """Make `apt-get source benchmark` work: a deb-src entry, then apt-get update."""
    if source_indexed():
        return
    if os.geteuid() != 0:
        raise InputError(f"apt has no source index for benchmark {DEBIAN_VERSION}: run scripts/lab bundle "
                         f"as root once (it writes {SOURCES_FILE} and runs apt-get update)")
    if not os.path.exists(SOURCES_FILE):
        log(f"adding a deb-src entry for bookworm: {SOURCES_FILE}")
        fsio.write_text(SOURCES_FILE, SOURCES_TEXT)
    # A failing index elsewhere (a mirror in sync) must not stop us when the
    # source index itself arrived: check again rather than trusting the exit status.
    subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not source_indexed():
        raise InputError(f"apt-get update did not bring benchmark {DEBIAN_VERSION}'s source index "
                         f"(see {SOURCES_FILE}; is deb.debian.org reachable?)")


def fetch_source(cache):
    """The unpacked, patched source package under CACHE/src (fetched once)."""
    src = os.path.join(cache, "src", f"benchmark-{GBENCH_VERSION}")
    changelog = fsio.read_or_none(os.path.join(src, "debian", "changelog")) or ""
    if f"({DEBIAN_VERSION})" in changelog.partition("\n")[0]:
        return src
    if not shutil.which("dpkg-source"):
        raise InputError("dpkg-source not found (Debian package dpkg-dev) to unpack the source package")
    ensure_deb_src()
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(src)) as tmp:
        log(f"apt-get source benchmark={DEBIAN_VERSION}")
        fsio.run(["apt-get", "source", "-q", f"benchmark={DEBIAN_VERSION}"], cwd=tmp)
        shutil.rmtree(src, ignore_errors=True)
        os.rename(os.path.join(tmp, f"benchmark-{GBENCH_VERSION}"), src)
    return src


def build(abi, top, cache, jobs=None):
    """The install prefix of Google Benchmark for ABI, built unless cached."""
    if not (cxx := shutil.which(f"{abi.triplet}-g++")):
        raise InputError(f"{abi.triplet}-g++ not found (Debian package g++-{abi.triplet}; "
                         "scripts/lab deps installs it)")
    src = fetch_source(cache)
    # Debian's build flags of this package for ABI's architecture (CPPFLAGS in CXXFLAGS, as debhelper does)
    env = dict(os.environ, DEB_HOST_ARCH=abi.deb_arch, DEB_BUILD_MAINT_OPTIONS=BUILD_MAINT_OPTIONS)
    get = lambda what: fsio.run(["dpkg-buildflags", "--get", what], env=env, cwd=src).strip()  # noqa: E731
    cxxflags, ldflags = f"{get('CXXFLAGS')} {get('CPPFLAGS')}".strip(), get("LDFLAGS")
    options = ["-DCMAKE_BUILD_TYPE=None", f"-DGIT_VERSION={GBENCH_VERSION}", "-DBUILD_SHARED_LIBS=OFF",
               "-DBENCHMARK_ENABLE_LTO=OFF", "-DBENCHMARK_ENABLE_TESTING=OFF",
               "-DBENCHMARK_ENABLE_WERROR=OFF", "-DBENCHMARK_INSTALL_DOCS=OFF"]
    compiler = fsio.run([cxx, "--version"]).splitlines()[0]
    stamp = (f"google_benchmark: {GBENCH_VERSION} (Debian source package benchmark {DEBIAN_VERSION}, "
             "static, LTO off)\n"
             f"google_benchmark_cxx: {compiler}\n"
             f"google_benchmark_cxxflags: {cxxflags}\n"
             f"google_benchmark_ldflags: {ldflags}\n"
             f"google_benchmark_cmake: {' '.join(options)}\n")
    prefix = os.path.join(cache, abi.name)
    if (fsio.read_or_none(os.path.join(prefix, "y2038-gbench.txt")) == stamp
            and os.path.exists(os.path.join(prefix, "lib", "libbenchmark.a"))):
        log(f"Google Benchmark {GBENCH_VERSION} for {abi.name}: cached in {prefix}")
        return prefix
    log(f"building Google Benchmark {GBENCH_VERSION} for {abi.name} with {compiler}")
    work = os.path.join(cache, f"build-{abi.name}")
    staging = prefix + ".new"
    for d in (work, staging):
        shutil.rmtree(d, ignore_errors=True)
    toolchain = os.path.join(top, "cmake", f"toolchain-{abi.preset}.cmake")
    fsio.run(["cmake", "-S", src, "-B", work, f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
              f"-DCMAKE_CXX_COMPILER={cxx}", f"-DCMAKE_INSTALL_PREFIX={os.path.abspath(staging)}"] + options,
             env=dict(os.environ, CXXFLAGS=cxxflags, LDFLAGS=ldflags))
    fsio.run(["cmake", "--build", work, "-j", str(jobs or os.cpu_count() or 1)])
    fsio.run(["cmake", "--install", work])
    fsio.write_text(os.path.join(staging, "y2038-gbench.txt"), stamp)
    # The install is relocatable (CMake's export files locate themselves):
    # replace the old prefix only now that the new one is complete.
    shutil.rmtree(prefix, ignore_errors=True)
    os.rename(staging, prefix)
    shutil.rmtree(work, ignore_errors=True)
    return prefix
