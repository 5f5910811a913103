#!/usr/bin/env python3
"""Unit tests of packaging/klint_build_backend.py: the manylinux tag it gives
binaries of known needs (as auditwheel would), and the wheel it writes (every
file in RECORD with its hash and size, the binary executable).

usage: backend_test.py KLINT_SOURCE_DIR
"""

import base64
import hashlib
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(sys.argv.pop(1)).resolve() / "packaging"))
import klint_build_backend as backend  # noqa: E402

RUNTIMES = ["libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6"]
# What klint built with GCC 12 on Debian 12 requires.
DEBIAN_12 = {"GLIBC_2.2.5", "GLIBC_2.34", "GLIBC_2.29", "GLIBCXX_3.4", "GLIBCXX_3.4.30", "CXXABI_1.3",
             "CXXABI_1.3.9", "GCC_3.0", "GCC_3.4"}


def tag(needed, versions, imported=frozenset()):
    with mock.patch.object(backend, "elf_requirements", return_value=(needed, set(versions), set(imported))), \
         mock.patch.object(backend.os, "uname", return_value=mock.Mock(machine="x86_64")), \
         mock.patch.object(backend, "_say"):
        return backend.platform_tag("klint")


class PlatformTag(unittest.TestCase):
    def test_debian_12_build_is_manylinux_2_35(self):
        self.assertEqual(tag(RUNTIMES, DEBIAN_12), "manylinux_2_35_x86_64")

    def test_a_library_outside_the_policies_gives_the_plain_linux_tag(self):
        self.assertEqual(tag(RUNTIMES + ["libfmt.so.9"], DEBIAN_12), "linux_x86_64")

    def test_the_oldest_policy_that_allows_every_version(self):
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "GLIBCXX_3.4.19", "CXXABI_1.3.7"}), "manylinux_2_17_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "GLIBCXX_3.4.20"}), "manylinux_2_24_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.28", "GLIBCXX_3.4.25"}), "manylinux_2_31_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.35", "GLIBCXX_3.4.31"}), "manylinux_2_39_x86_64")
        self.assertEqual(tag(["libc.so.6"], {"GLIBC_2.34"}), "manylinux_2_34_x86_64")

    def test_versions_no_policy_knows(self):
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "GLIBC_PRIVATE"}), "linux_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "GLIBCXX_3.4.99"}), "linux_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "CXXABI_TM_1"}), "manylinux_2_17_x86_64")
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17", "GLIBC_ABI_DT_RELR"}), "manylinux_2_36_x86_64")

    def test_symbols_the_old_policies_forbid(self):
        self.assertEqual(tag(RUNTIMES, {"GLIBC_2.17"}, {"__cxa_thread_atexit_impl"}), "manylinux_2_24_x86_64")


class Wheel(unittest.TestCase):
    def test_record_holds_every_file_with_its_hash(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            (scratch / "src").mkdir()
            (scratch / "src" / "README.md").write_text("# klint\n")
            stage = scratch / "stage"
            (stage / "bin").mkdir(parents=True)
            (stage / "bin" / "klint").write_bytes(b"\x7fELF binary")
            (stage / "share" / "man" / "man1").mkdir(parents=True)
            (stage / "share" / "man" / "man1" / "klint.1").write_text(".TH KLINT 1\n")
            name = backend._write_wheel(scratch / "dist", scratch / "src", "1.2.3", stage, "manylinux_2_35_x86_64")
            self.assertEqual(name, "klint-1.2.3-py3-none-manylinux_2_35_x86_64.whl")
            with zipfile.ZipFile(scratch / "dist" / name) as wheel:
                record = wheel.read("klint-1.2.3.dist-info/RECORD").decode().splitlines()
                listed = {line.split(",")[0] for line in record}
                self.assertEqual(listed, set(wheel.namelist()))
                for line in record:
                    path, digest, size = line.split(",")
                    if path.endswith("RECORD"):
                        continue
                    data = wheel.read(path)
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual((digest, int(size)), (f"sha256={expected}", len(data)), path)
                script = wheel.getinfo("klint-1.2.3.data/scripts/klint")
                self.assertEqual((script.external_attr >> 16) & 0o777, 0o755)
                self.assertIn("klint-1.2.3.data/data/share/man/man1/klint.1", wheel.namelist())
                self.assertIn("Tag: py3-none-manylinux_2_35_x86_64", wheel.read("klint-1.2.3.dist-info/WHEEL").decode())
                metadata = wheel.read("klint-1.2.3.dist-info/METADATA").decode()
                self.assertIn("Version: 1.2.3\n", metadata)
                self.assertTrue(metadata.endswith("# klint\n"))


class Sdist(unittest.TestCase):
    def test_holds_what_a_build_needs_and_no_build_folder(self):
        import os
        import tarfile
        source = Path(backend.__file__).resolve().parent.parent
        version = backend.project_version(source)
        with tempfile.TemporaryDirectory() as scratch:
            cwd = os.getcwd()
            os.chdir(source)
            try:
                name = backend.build_sdist(scratch)
            finally:
                os.chdir(cwd)
            self.assertEqual(name, f"klint-{version}.tar.gz")
            with tarfile.open(Path(scratch) / name) as sdist:
                names = set(sdist.getnames())
            root = f"klint-{version}"
            for path in ("PKG-INFO", "CMakeLists.txt", "pyproject.toml", "packaging/klint_build_backend.py",
                         "driver/main.cpp"):
                self.assertIn(f"{root}/{path}", names)
            self.assertFalse([n for n in names if n.startswith(f"{root}/build/") or "/.git/" in n])


if __name__ == "__main__":
    unittest.main()
