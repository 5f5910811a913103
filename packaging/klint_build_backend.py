"""klint's PEP 517 build backend: `pip install .` and `pip wheel .` without a
package index (docs/install.md says why it is not scikit-build-core).

It configures, builds and installs klint with CMake, and packs what was
installed into a wheel: the native binary as the wheel's `klint` script
(`klint-VERSION.data/scripts/klint`, which pip copies into the environment's
bin/ as it is) and the man page under `share/man/man1`. The wheel holds no
Python and runs on any Python 3: its tag is `py3-none-PLATFORM`, and the
platform is the manylinux one whose policy the binary meets, found the way
auditwheel finds it (`platform_tag`).

Settings, as `pip wheel . --config-settings KEY=VALUE` (pip 23.1 and later) or
in the environment:
  build-dir / KLINT_WHEEL_BUILD_DIR   install from this already built CMake
      build folder instead of configuring and building a fresh one (the tests
      do, to take seconds instead of minutes). It must be of this version.
  cmake-args / KLINT_WHEEL_CMAKE_ARGS   more arguments for the configuration,
      split on spaces.
CMake reads CMAKE_CXX_COMPILER_LAUNCHER (ccache) and CMAKE_BUILD_PARALLEL_LEVEL
from the environment itself; neither is needed.

Only the standard library: pip's isolated build environment installs nothing,
since `requires = []`.
"""

import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

NAME = "klint"
SUMMARY = "Find the pitfalls of Vulkan compute shaders (GLSL, HLSL, SPIR-V) before they run"

# What each manylinux policy allows an x86_64 binary, from auditwheel's
# policy file (src/auditwheel/policy/manylinux-policy.json, pypa/auditwheel,
# August 2026): the libraries it may need, and the newest symbol version of
# each versioned namespace (GLIBC_, GLIBCXX_, CXXABI_, GCC_) it may require,
# besides the non-numbered versions listed. The first policy met, newest last
# here, is the most widely installable one.
_LIBRARIES = {"libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
              "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6", "libXext.so.6",
              "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1", "libgobject-2.0.so.0",
              "libgthread-2.0.so.0", "libglib-2.0.so.0", "libexpat.so.1", "libz.so.1", "libatomic.so.1",
              "libanl.so.1"}
_NEWER_CXXABI = {"CXXABI_TM_1", "CXXABI_FLOAT128"}
_DT_RELR = _NEWER_CXXABI | {"GLIBC_ABI_DT_RELR"}
_POLICIES = [
    # (tag, GLIBC, GLIBCXX, CXXABI, GCC, other versions allowed, more libraries)
    ("manylinux_2_17", "2.17", "3.4.19", "1.3.7", "4.8.0", {"CXXABI_TM_1"}, set()),
    ("manylinux_2_24", "2.24", "3.4.22", "1.3.10", "4.8.0", _NEWER_CXXABI, set()),
    ("manylinux_2_26", "2.26", "3.4.22", "1.3.10", "4.8.0", _NEWER_CXXABI, set()),
    ("manylinux_2_27", "2.27", "3.4.24", "1.3.11", "7.0.0", _NEWER_CXXABI, set()),
    ("manylinux_2_28", "2.28", "3.4.24", "1.3.11", "7.0.0", _NEWER_CXXABI, {"libmvec.so.1"}),
    ("manylinux_2_31", "2.31", "3.4.28", "1.3.12", "7.0.0", _NEWER_CXXABI, {"libmvec.so.1"}),
    ("manylinux_2_34", "2.34", "3.4.29", "1.3.13", "7.0.0", _NEWER_CXXABI, {"libmvec.so.1"}),
    ("manylinux_2_35", "2.35", "3.4.30", "1.3.13", "12.0.0", _NEWER_CXXABI, {"libmvec.so.1"}),
    ("manylinux_2_36", "2.36", "3.4.30", "1.3.13", "12.0.0", _DT_RELR, {"libmvec.so.1"}),
    ("manylinux_2_37", "2.36", "3.4.30", "1.3.13", "12.0.0", _DT_RELR, {"libmvec.so.1"}),
    ("manylinux_2_38", "2.38", "3.4.30", "1.3.13", "12.0.0", _DT_RELR, {"libmvec.so.1"}),
    ("manylinux_2_39", "2.39", "3.4.33", "1.3.15", "14.0.0", _DT_RELR, {"libmvec.so.1"}),
    ("manylinux_2_40", "2.40", "3.4.33", "1.3.15", "14.0.0", _DT_RELR, {"libmvec.so.1"}),
    ("manylinux_2_41", "2.41", "3.4.33", "1.3.15", "14.0.0", _DT_RELR, {"libmvec.so.1"}),
]
# Symbols of glibc that manylinux_2_17 and older forbid (auditwheel's blacklist).
_OLD_POLICY_BLACKLIST = {"__cxa_thread_atexit_impl", "__issignaling", "__issignalingf", "__issignalingl",
                         "pthread_getattr_default_np", "pthread_setattr_default_np"}


def _say(message):
    print(f"klint build backend: {message}", file=sys.stderr, flush=True)


def _version_tuple(text):
    return tuple(int(part) for part in text.split("."))


def elf_requirements(binary):
    """(needed libraries, required symbol versions, imported symbol names) of
    an ELF file, as `objdump -p` and `objdump -T` print them."""
    headers = subprocess.run(["objdump", "-p", str(binary)], check=True, capture_output=True, text=True).stdout
    needed = re.findall(r"^\s+NEEDED\s+(\S+)$", headers, re.M)
    references = headers.split("Version References:", 1)[1] if "Version References:" in headers else ""
    versions = set(re.findall(r"^\s+0x[0-9a-f]+ 0x[0-9a-f]+ \d+ (\S+)$", references, re.M))
    symbols = subprocess.run(["objdump", "-T", str(binary)], check=True, capture_output=True, text=True).stdout
    imported = set(re.findall(r"\*UND\*\s+\S+\s+(?:\(?\S+\)?\s+)?(\S+)$", symbols, re.M))
    return needed, versions, imported


def _policy_problems(policy, needed, versions, imported):
    tag, glibc, glibcxx, cxxabi, gcc, others, libraries = policy
    newest = {"GLIBC": glibc, "GLIBCXX": glibcxx, "CXXABI": cxxabi, "GCC": gcc}
    problems = [f"needs {library}" for library in needed if library not in _LIBRARIES | libraries and
                not library.startswith("ld-linux")]
    for version in versions:
        namespace, _, number = version.partition("_")
        if version in others:
            continue
        if namespace not in newest or not re.fullmatch(r"[0-9.]+", number):
            problems.append(f"requires {version}")
        elif _version_tuple(number) > _version_tuple(newest[namespace]):
            problems.append(f"requires {version} (newest allowed: {namespace}_{newest[namespace]})")
    if _version_tuple(glibc) <= (2, 17):
        problems += [f"imports {symbol}" for symbol in imported & _OLD_POLICY_BLACKLIST]
    return sorted(problems)


def platform_tag(binary):
    """The manylinux tag of the oldest policy `binary` meets, as auditwheel
    would give it, or linux_ARCH with the reason when it meets none."""
    machine = os.uname().machine
    if sys.platform != "linux":
        raise RuntimeError(f"klint's wheels are built on Linux only so far, not {sys.platform} (docs/install.md)")
    if machine != "x86_64":
        _say(f"no manylinux policy of {machine} is known here: tagging the wheel linux_{machine}")
        return f"linux_{machine}"
    try:
        needed, versions, imported = elf_requirements(binary)
    except (OSError, subprocess.CalledProcessError) as error:
        _say(f"cannot read the binary's dependencies with objdump ({error}): tagging the wheel linux_{machine}")
        return f"linux_{machine}"
    for policy in _POLICIES:
        if not _policy_problems(policy, needed, versions, imported):
            return f"{policy[0]}_{machine}"
    newest = _POLICIES[-1]
    _say(f"the binary meets no manylinux policy up to {newest[0]}: "
         + "; ".join(_policy_problems(newest, needed, versions, imported)) + f"; tagging the wheel linux_{machine}")
    return f"linux_{machine}"


def project_version(source):
    """The one version of klint, project(klint VERSION ...) in CMakeLists.txt."""
    text = (source / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*klint\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt has no project(klint VERSION ...)")
    return match.group(1)


def _setting(config_settings, key, variable):
    value = (config_settings or {}).get(key)
    if value is None:
        value = os.environ.get(variable)
    return value or None


def _run(command, **kwargs):
    _say("$ " + shlex.join(str(part) for part in command))
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def _cached_version(build_dir):
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        raise RuntimeError(f"{build_dir} is not a CMake build folder (no CMakeCache.txt)")
    match = re.search(r"^CMAKE_PROJECT_VERSION:STATIC=(.*)$", cache.read_text(encoding="utf-8"), re.M)
    return match.group(1) if match else None


def _build_and_install(source, version, config_settings, scratch):
    """Installs klint into scratch/stage and returns that folder."""
    stage = scratch / "stage"
    build_dir = _setting(config_settings, "build-dir", "KLINT_WHEEL_BUILD_DIR")
    if build_dir:
        # Already built: installed as it is, without building it again (a test
        # may be running its binary meanwhile).
        build_dir = Path(build_dir).resolve()
        built = _cached_version(build_dir)
        if built != version:
            raise RuntimeError(f"{build_dir} builds klint {built}, not {version}, the version of {source}")
        _say(f"installing the klint already built in {build_dir}")
    else:
        build_dir = scratch / "build"
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        extra = shlex.split(_setting(config_settings, "cmake-args", "KLINT_WHEEL_CMAKE_ARGS") or "")
        _run(["cmake", "-S", source, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release",
              "-DKLINT_BUILD_TESTS=OFF", *extra])
        _run(["cmake", "--build", build_dir])
    _run(["cmake", "--install", build_dir, "--prefix", stage, "--strip"], stdout=sys.stderr)
    if not (stage / "bin" / NAME).is_file():
        raise RuntimeError(f"cmake --install put no bin/{NAME} into {stage}")
    return stage


def _metadata(source, version):
    readme = (source / "README.md").read_text(encoding="utf-8") if (source / "README.md").is_file() else ""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version}",
        f"Summary: {SUMMARY}",
        "Keywords: vulkan,glsl,hlsl,spir-v,compute,shader,linter,static-analysis",
        "Classifier: Environment :: Console",
        "Classifier: Programming Language :: C++",
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Classifier: Operating System :: POSIX :: Linux",
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + readme


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, source, version, stage, tag):
    dist_info = f"{NAME}-{version}.dist-info"
    data = f"{NAME}-{version}.data"
    files = [(f"{data}/scripts/{NAME}", (stage / "bin" / NAME).read_bytes(), 0o755)]
    for path in sorted((stage / "share").rglob("*")):
        if path.is_file():
            files.append((f"{data}/data/{path.relative_to(stage).as_posix()}", path.read_bytes(), 0o644))
    files += [
        (f"{dist_info}/METADATA", _metadata(source, version).encode(), 0o644),
        (f"{dist_info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: klint_build_backend\n"
                                f"Root-Is-Purelib: false\nTag: py3-none-{tag}\n").encode(), 0o644),
    ]
    record = [_record_line(path, content) for path, content, _ in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    name = f"{NAME}-{version}-py3-none-{tag}.whl"
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, content, mode in files:
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, content)
    return name


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    source = Path.cwd()
    version = project_version(source)
    with tempfile.TemporaryDirectory(prefix="klint-wheel-") as scratch:
        stage = _build_and_install(source, version, config_settings, Path(scratch))
        tag = platform_tag(stage / "bin" / NAME)
        name = _write_wheel(wheel_directory, source, version, stage, tag)
    _say(f"wrote {name}")
    return name


def build_sdist(sdist_directory, config_settings=None):
    """The files git tracks (or, outside a checkout, the tree without build
    folders), as klint-VERSION.tar.gz. A build from it has no commit to name in
    --version."""
    source = Path.cwd()
    version = project_version(source)
    try:
        listed = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], check=True, capture_output=True,
                                text=True).stdout.split("\0")
        paths = [source / path for path in listed if path and (source / path).is_file()]
    except (OSError, subprocess.CalledProcessError):
        paths = [path for path in source.rglob("*") if path.is_file() and not
                 any(part.startswith((".", "build")) for part in path.relative_to(source).parts)]
    name = f"{NAME}-{version}.tar.gz"
    root = f"{NAME}-{version}"
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as sdist:
        for path in sorted(paths):
            sdist.add(path, arcname=f"{root}/{path.relative_to(source).as_posix()}", recursive=False)
        info = tarfile.TarInfo(f"{root}/PKG-INFO")
        metadata = _metadata(source, version).encode()
        info.size = len(metadata)
        sdist.addfile(info, io.BytesIO(metadata))
    return name
