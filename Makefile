# shove: the two commands are `make demo` and `make test`. Everything else
# is a convenience around CMake. Missing packages are installed first
# (tools/install-deps), through sudo when not root.
BUILD       ?= build
BUILD_ASAN  ?= build-sanitize
BUILD_TSAN  ?= build-tsan
BUILD_NONAT ?= build-simde-portable
BUILD_FUZZ  ?= build-fuzz
BUILD_SHARED ?= build-shared
BUILD_CROSS ?= build-aarch64
FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 300
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure -j $(JOBS)
# `make install PREFIX=/some/where` installs under that prefix; empty means
# CMake's default (/usr/local). DESTDIR works as CMake defines it.
PREFIX      ?=

.PHONY: all deps build test demo playground pictures web test-web single-header bench sanitize tsan portable shared cross-test valgrind fuzz fuzz-long fuzz-deps fuzz-merge format format-check install install-only clean help

all: build

help:
	@echo "make demo      build and run the headless demo (writes a picture under out/)"
	@echo "make test      build and run every test"
	@echo "make playground  the interactive 2D demo in a window (installs libsdl2-dev if it can)"
	@echo "make pictures  replay the playground's tour headless and refresh docs/images/"
	@echo "make web       build the playground for the browser into out/web/ (Emscripten)"
	@echo "make single-header  write out/single/shove.h (the whole library in one header)"
	@echo "make bench     run the benchmarks (tables on stdout, CSV and SVG under out/bench)"
	@echo "make sanitize  every test under AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "make tsan      the step on 1, 2, 3 workers under ThreadSanitizer"
	@echo "make portable  every test with SIMDe's portable path (-DSIMDE_NO_NATIVE)"
	@echo "make shared    build libshove as a shared library; run what links it (examples, README, install)"
	@echo "make cross-test  AArch64 build under qemu: NEON against scalar, same hashes as x86"
	@echo "make valgrind  every test under valgrind memcheck (scalar level)"
	@echo "make fuzz      every libFuzzer harness for FUZZ_SECONDS (default 60) each (clang)"
	@echo "make fuzz-long every harness for FUZZ_LONG_SECONDS (default 300) each, with run counts"
	@echo "make fuzz-merge  same as fuzz, then add inputs reaching new code to tests/fuzz/corpus"
	@echo "make format    clang-format every source"
	@echo "make install PREFIX=DIR  build, then install under DIR (default /usr/local)"

deps:
	@sh tools/install-deps

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Each suite runs once per SIMD level (NAME.scalar, NAME.avx2, ...); ctest
# lists the levels this CPU lacks as "Skipped", which the last line explains,
# and the web playground's browser test when Emscripten or Chromium is
# missing (make test-web installs them, then runs that test alone).
test: build
	@cd $(BUILD) && ctest $(CTEST_FLAGS); status=$$?; \
	    echo "Skipped above means a SIMD level this CPU lacks ($$(uname -m): NAME.neon on x86," \
	        "the x86 levels on ARM), not a failure; make cross-test runs NEON under qemu."; \
	    if ! command -v emcc >/dev/null 2>&1 || ! { command -v chromium || command -v chromium-browser || \
	        command -v google-chrome; } >/dev/null 2>&1; then \
	        echo "example.playground_web is skipped without Emscripten and Chromium" \
	            "(sh tools/install-deps web, or make test-web, installs them)."; fi; \
	    exit $$status

# Only what the demo needs: the library and the demo program (with Cairo for
# its picture when libcairo2-dev can be installed).
demo: deps
	@sh tools/install-deps --optional libcairo2-dev fonts-dejavu-core
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target demo
	@mkdir -p out
	$(BUILD)/examples/demo out

playground: deps
	@sh tools/install-deps --optional libsdl2-dev
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target playground
	$(BUILD)/examples/interactive/playground

pictures: build
	@mkdir -p docs/images
	$(BUILD)/examples/interactive/playground --headless --out docs/images
	@if [ -f $(BUILD)/web/playground-web.png ]; then \
	    cp $(BUILD)/web/playground-web.png docs/images/; \
	    echo "copied the web playground's screenshot (from make test)"; fi

# out/web/: the playground for the browser (tools/build-web), from the
# sources the native build compiles. Serve the folder with any static file
# server, e.g. python3 -m http.server -d out/web.
# make test-web: installs Emscripten and Chromium, then runs only the test
# that make test also runs when both are there (tools/test-web: out/web/
# built and served on 127.0.0.1, the tour played in headless Chromium,
# status line checked, screenshot saved).
test-web: deps $(BUILD)/CMakeCache.txt
	@sh tools/install-deps web
	cmake -S . -B $(BUILD) -DSHOVE_TEST_BROWSER=ON
	cd $(BUILD) && ctest $(CTEST_FLAGS) -R '^example\.playground_web$$'

web: deps $(BUILD)/CMakeCache.txt
	@sh tools/install-deps emscripten
	cmake -S . -B $(BUILD)
	sh tools/build-web $(BUILD) out/web

# out/single/shove.h: generated from the sources the build compiles
# (tools/gen-single-header); tests/single checks it against the library.
single-header: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target shove_single_header
	@mkdir -p out/single
	cp $(BUILD)/single/shove.h out/single/shove.h
	@echo "wrote out/single/shove.h"

bench: deps
	cmake -S . -B $(BUILD)-bench -DCMAKE_BUILD_TYPE=Release -DSHOVE_BUILD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)-bench -j $(JOBS)
	@mkdir -p out/bench
	@for b in $(BUILD)-bench/bench/bench_*; do \
	    [ -x "$$b" ] || continue; echo "== $$b"; "$$b" out/bench || exit 1; done

sanitize: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DSHOVE_SANITIZE=ON \
	    -DSHOVE_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest $(CTEST_FLAGS)

# The step runs its work on several threads: ThreadSanitizer on the worker
# scenes (tests/tsan: bench_step's scenes and a voxel pen, on 1, 2 and 3
# workers and a game's task systems; 2D and 3D) and on fuzz_world's corpus
# (every script stepped on 1, 2 and 3 workers). Criterion does not start
# under ThreadSanitizer, so the Criterion suites are not part of it; in a
# normal build, SHOVE_TEST_WORKERS=3 ctest -R step runs the step suites with
# 3 workers per world.
tsan: deps
	cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHOVE_TSAN=ON \
	    -DSHOVE_BUILD_BENCH=OFF -DSHOVE_BUILD_LUA=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target tsan_step_2d tsan_step_3d fuzz_replay_world
	cd $(BUILD_TSAN) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	    ctest $(CTEST_FLAGS) -L tsan

portable: deps
	cmake -S . -B $(BUILD_NONAT) -DSHOVE_SIMDE_NO_NATIVE=ON -DSHOVE_BUILD_BENCH=OFF \
	    -DSHOVE_TEST_BROWSER=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_NONAT) -j $(JOBS)
	cd $(BUILD_NONAT) && ctest $(CTEST_FLAGS)

# libshove as a shared library. Unit tests link the same objects as a static
# archive (shove_testing), so only what links libshove itself runs here: the
# examples, the README's code, shove-replay and the installed-package
# consumers (find_package and pkg-config against the installed .so).
shared: deps
	cmake -S . -B $(BUILD_SHARED) -DBUILD_SHARED_LIBS=ON -DSHOVE_BUILD_BENCH=OFF \
	    -DSHOVE_TEST_BROWSER=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_SHARED) -j $(JOBS)
	cd $(BUILD_SHARED) && ctest $(CTEST_FLAGS) -R '^(example\.|readme_|replay_|package_)'

# AArch64: cross-compiled with Debian's gcc-aarch64-linux-gnu, run under
# qemu-aarch64-static (tools/cross-test); compared with this build's hashes.
cross-test: build
	@sh tools/install-deps cross
	sh tools/cross-test $(BUILD)/tests/determinism/determinism $(BUILD_CROSS)

valgrind: build
	@sh tools/install-deps valgrind
	sh tools/run-valgrind $(BUILD) $(JOBS)

# The fuzz build: clang, libFuzzer coverage, ASan + UBSan on everything.
fuzz-deps:
	@sh tools/install-deps fuzz

$(BUILD_FUZZ)/CMakeCache.txt: | fuzz-deps
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHOVE_FUZZ=ON \
	    -DSHOVE_BUILD_TESTS=OFF -DSHOVE_BUILD_BENCH=OFF -DSHOVE_BUILD_EXAMPLES=OFF $(CMAKE_FLAGS)

fuzz: fuzz-deps $(BUILD_FUZZ)/CMakeCache.txt
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	sh tools/run-fuzz $(BUILD_FUZZ) $(FUZZ_SECONDS)

# Release depth: FUZZ_LONG_SECONDS per harness, one harness at a time (one
# core); prints the runs of every harness at the end.
fuzz-long: fuzz-deps $(BUILD_FUZZ)/CMakeCache.txt
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	sh tools/run-fuzz $(BUILD_FUZZ) $(FUZZ_LONG_SECONDS)

fuzz-merge: fuzz-deps $(BUILD_FUZZ)/CMakeCache.txt
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	sh tools/run-fuzz $(BUILD_FUZZ) $(FUZZ_SECONDS) merge

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.inc')
	tools/gen-shove2-header > include/shove/shove2.h

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h' '*.inc')

install: build
	@$(MAKE) --no-print-directory install-only

# Installs what is built, without building (tests/package/check-make-install).
install-only:
	cmake --install $(BUILD) $(if $(PREFIX),--prefix "$(PREFIX)")

clean:
	rm -rf $(BUILD) $(BUILD)-bench $(BUILD_ASAN) $(BUILD_NONAT) $(BUILD_FUZZ) $(BUILD_SHARED) \
	    $(BUILD_CROSS) out
