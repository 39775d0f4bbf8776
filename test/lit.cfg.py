# lit configuration for torch-tidy. Run through ctest (scripts/test.sh), which
# configures test/lit.site.cfg.py with the build's paths.
import os
import lit.formats

config.name = "torch-tidy"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.torch_tidy_obj, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# How the checks are run: through the plugin (default) or a binary that links
# them in (--param torch_tidy_driver=/path/to/torch-tidy).
driver = lit_config.params.get("torch_tidy_driver", "")
if driver:
    tidy = driver
    load = ""
    # Its own temporary files, so both modes of a test can run at once.
    config.test_exec_root = os.path.join(config.torch_tidy_obj, "test-binary")
else:
    tidy = config.clang_tidy
    load = "--load=" + config.torch_tidy_plugin

std = "-std=c++17"
mock_flags = "%s -isystem %s" % (std, os.path.join(config.test_source_root, "Inputs", "mock"))
real_flags_nopch = "%s -isystem %s" % (std, config.torch_include)
# <torch/torch.h> from the build's precompiled header when there is one (see
# test/CMakeLists.txt); a test's own `#include <torch/torch.h>` is then a no-op.
real_flags = real_flags_nopch
# The same PCH as run-torch-tidy arguments, for tests of whole projects.
pch_tidy_args = ""
if config.torch_pch and os.path.exists(config.torch_pch):
    real_flags += " -include-pch " + config.torch_pch
    pch_tidy_args = "--tidy-arg=--extra-arg=-include-pch --tidy-arg=--extra-arg=" + config.torch_pch
    config.available_features.add("torch-pch")

# The binary's run leaves the real-header runs of %check_torch_tidy to the
# plugin's: the same check code on the same AST, and half of the suite's time.
config.substitutions.append(("%check_torch_tidy",
    "%s %s --clang-tidy=%s --load=%s --filecheck=%s --clangxx=%s%s" % (
        config.python, os.path.join(config.test_source_root, "check_torch_tidy.py"),
        tidy, config.torch_tidy_plugin if not driver else "", config.filecheck, config.clangxx,
        " --skip-include=" + config.torch_include if driver else "")))
config.substitutions.append(("%clang_tidy_torch", "%s %s" % (tidy, load)))
config.substitutions.append(("%run_torch_tidy", "%s %s --clang-tidy=%s --plugin=%s -j 1" % (
    config.python, os.path.join(config.torch_tidy_src, "scripts", "run-torch-tidy"),
    tidy, "" if driver else config.torch_tidy_plugin)))
config.substitutions.append(("%clangxx", config.clangxx))
# The Level --export-fixes gives a warning that --warnings-as-errors turns into
# an error: clang-tidy 14 and 15 still export it as a Warning.
config.substitutions.append(("%exported_error_level",
    "Warning" if int(config.llvm_major) < 16 else "Error"))
# --dump-config's CheckOptions as a map on every major (14 dumps a list).
config.substitutions.append(("%config_map", "%s %s" % (
    config.python, os.path.join(config.test_source_root, "config_map.py"))))
config.substitutions.append(("%mock_flags", mock_flags))
config.substitutions.append(("%real_flags_nopch", real_flags_nopch))
config.substitutions.append(("%real_flags", real_flags))
config.substitutions.append(("%pch_tidy_args", pch_tidy_args))
config.substitutions.append(("%torch_include", config.torch_include))
config.substitutions.append(("%torch_tidy_src", config.torch_tidy_src))
config.substitutions.append(("%torch_tidy_obj", config.torch_tidy_obj))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%llvm_major", config.llvm_major))

config.environment["PATH"] = os.pathsep.join([config.llvm_bin, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
if not driver:
    config.available_features.add("plugin")

# A clang-tidy of another LLVM major, for the version-mismatch test.
for other in ("19", "22", "20", "21", "18"):
    path = "/usr/lib/llvm-%s/bin/clang-tidy" % other
    if other != config.llvm_major and os.path.exists(path):
        config.substitutions.append(("%other_clang_tidy", path))
        config.available_features.add("other-clang-tidy")
        break

# libc++'s shared runtime, for the loader test with a host built against libc++.
import glob
for libcxx in sorted(glob.glob("/usr/lib/*/libc++.so.1") + glob.glob("/usr/lib/llvm-*/lib/libc++.so.1")):
    config.substitutions.append(("%libcxx_runtime", libcxx))
    config.available_features.add("libcxx-runtime")
    break

# The proof-of-harm programs (harm/) build with g++ and LibTorch and do not depend
# on LLVM: their smoke run belongs to the default major's plugin run only.
import shutil as _shutil
if (config.llvm_major == "19" and not driver and _shutil.which("g++")
        and os.path.exists("/usr/lib/x86_64-linux-gnu/libtorch.so")):
    config.available_features.add("harm")
