# down_read_unfair() for Linux 6.12: the front door.  `make help` lists
# the targets.  Every phase prints its elapsed time.

# --- what the series is built on, and by whom ---------------------------
BASE_PKG       := linux-source-6.12
BASE_VERSION   := 6.12.118-1~deb12u1
SERIES_VERSION := 1
# The identity of the commits in the kernel tree (their committer, so that
# commit ids are the same on every machine) and of the exported patches
# until someone signs them: a group alias, which cannot certify the DCO.
PROJECT_NAME   := rwsem-unfair developers
PROJECT_EMAIL  := rwsem-unfair@example.org
# Who posts the series: 'make export AUTHOR_NAME="Jane Doe"
# AUTHOR_EMAIL=jane@example.com' regenerates every patch with that From:
# and Signed-off-by:.  Empty: keep the identity the patch folders carry.
AUTHOR_NAME    ?=
AUTHOR_EMAIL   ?=

# --- where things live (outside the checkout) ----------------------------
CACHE ?= $(HOME)/.cache/rwsem-unfair
TREE  ?= $(CACHE)/linux
OBJ   ?= $(CACHE)/obj
RUNS  ?= $(CACHE)/runs

# kselftest collections built and installed into the guest
KSFT_TARGETS := proc

# The flags of every make of a kernel tree, here and nowhere else: KMAKE
# (the tree into $(OBJ)) and lib.sh's kmake_at (any worktree, any object
# directory) both pass them.
KBUILD_FLAGS := ARCH=x86_64 KBUILD_BUILD_USER=rwsem-unfair KBUILD_BUILD_HOST=qemu \
	KBUILD_BUILD_TIMESTAMP=$(subst ~,-,$(BASE_VERSION))
KMAKE := make -C $(TREE) O=$(OBJ) $(KBUILD_FLAGS)

export BASE_PKG BASE_VERSION SERIES_VERSION PROJECT_NAME PROJECT_EMAIL AUTHOR_NAME AUTHOR_EMAIL
export CACHE TREE OBJ RUNS KBUILD_FLAGS KMAKE KSFT_TARGETS
# ccache through Debian's compiler symlinks: CC stays "gcc" for kbuild.
export PATH := /usr/lib/ccache:/usr/sbin:/usr/bin:/sbin:/bin:$(PATH)
export CCACHE_MAXSIZE ?= 8G

Q := qemu-boot
PHASE := $(Q)/phase.sh

.PHONY: all help deps tree config build initramfs boot demo check test bench shell \
	model mutations soak sanitize judge-test test-base ksft-i386 export check-export check-fastpath check-series mbox image-path clean distclean

all: demo

help:
	@echo 'down_read_unfair() for Linux 6.12 ($(BASE_PKG) $(BASE_VERSION))'
	@echo
	@echo 'Main commands:'
	@echo '  make              build the patched kernel, boot it in QEMU, show the demo'
	@echo '  make test         make check, then every QEMU run; "N passed, N failed, N skipped"'
	@echo
	@echo 'Phases (each can be run alone, each depends on the ones before):'
	@echo '  deps              apt-get install what is missing (needs root)'
	@echo '  tree              import the base into $(TREE), git am the patch folders'
	@echo '  config            tinyconfig + $(Q)/kernel.config via merge_config.sh, verified'
	@echo '  build             kernel, modules and kselftests into $(OBJ) (ccache)'
	@echo '  initramfs         dracut initramfs: kselftests, guest runner, $(Q)/manifest'
	@echo '  demo (boot)       the manifest'"'"'s demo suites on the patched kernel'
	@echo
	@echo 'Checks (make check: all of these, no QEMU):'
	@echo '  judge-test        the judge ($(Q)/judge.py) on the golden runs in $(Q)/judge-tests/'
	@echo '  check-export      fail if re-exporting the branch would change a file'
	@echo '  check-fastpath    fail if a fair rwsem fast path compiles differently from base'
	@echo '  check-series      messages and recipients, git am onto base, checkpatch --strict,'
	@echo '                    build after each patch, PREEMPT_RT, sparse, docs, MAINTAINERS'
	@echo '  model             spin: the admission rule holds, each broken rule has a counterexample'
	@echo '  ksft-i386         build the proc kselftests for i386 (gcc -m32)'
	@echo
	@echo 'QEMU runs (make test: check, then these three):'
	@echo '  test              the manifest'"'"'s test suites on the patched kernel'
	@echo '  test-base         its base-kernel suites on the unpatched kernel: pass or skip'
	@echo '  mutations         each $(Q)/mutations/*.patch must make the tests fail'
	@echo '  soak              the stress stage and the contention kselftests, boot after'
	@echo '                    boot (SOAK_BOOTS=30, SOAK_SECONDS=3600), until one fails'
	@echo '  sanitize          KASAN and KCSAN kernels (own object directories): KUnit,'
	@echo '                    locktorture and the proc kselftests, 0 reports'
	@echo '  bench             base and patched kernels, the kselftests'"'"' bench modes; the'
	@echo '                    report in $(RUNS)/bench'
	@echo '  shell             an interactive shell in the guest'
	@echo
	@echo 'Series: export (branch -> folders), mbox (one threaded mbox for b4 / git am)'
	@echo 'Other: image-path, clean (runs, initramfs), distclean (all of $(CACHE))'
	@echo
	@echo 'Variables: CACHE=$(CACHE) TREE=$(TREE) OBJ=$(OBJ)'
	@echo '           SUITES=a,b (manifest suites to boot), GUEST_CMDLINE=harness.NAME=VALUE'
	@echo '           QEMU_ACCEL=kvm|tcg|tcg,thread=single|... (default: probe KVM, fall back to TCG)'

deps:
	@$(PHASE) deps $(Q)/deps.sh

tree: deps
	@$(PHASE) tree $(Q)/tree.sh

config: tree
	@$(PHASE) config $(Q)/config.sh

build: config
	@$(PHASE) build $(Q)/build.sh

initramfs: build
	@$(PHASE) initramfs $(Q)/initramfs.sh

boot demo: initramfs
	@$(PHASE) demo $(Q)/suite-run.sh demo patched

# series hygiene, no QEMU; the judge's own test first
check: judge-test check-export check-fastpath check-series model ksft-i386

test: check initramfs
	@$(PHASE) test $(Q)/suite-run.sh test patched
	@$(PHASE) test-base $(Q)/suite-run.sh test base
	@$(PHASE) mutations $(Q)/mutate.sh

# the judge (judge.py) on golden runs, before it judges anything real
judge-test: tree
	@$(PHASE) judge-test python3 $(Q)/judge_test.py $(TREE)

test-base: initramfs
	@$(PHASE) test-base $(Q)/suite-run.sh test base

ksft-i386: build
	@$(PHASE) ksft-i386 $(Q)/ksft-i386.sh

model: tree
	@$(PHASE) model $(Q)/model.sh

mutations: initramfs
	@$(PHASE) mutations $(Q)/mutate.sh

soak: initramfs
	@$(PHASE) soak $(Q)/soak.sh

sanitize: config
	@$(PHASE) sanitize $(Q)/sanitize.sh

bench: initramfs
	@DEPS_EXTRA=gnuplot-nox $(PHASE) bench-deps $(Q)/deps.sh
	@$(PHASE) bench $(Q)/bench.sh

shell: initramfs
	@$(Q)/run-qemu.sh shell

export:
	@$(PHASE) export $(Q)/export.sh

check-export:
	@$(PHASE) check-export $(Q)/export.sh --check

check-fastpath: build
	@$(PHASE) check-fastpath $(Q)/check-fastpath.sh

# in a worktree and object directories of its own: it never touches $(OBJ)
check-series: tree check-export
	@$(PHASE) check-series $(Q)/check-series.sh

mbox: check-export
	@$(PHASE) mbox $(Q)/mbox.sh

image-path:
	@echo $(OBJ)/arch/x86/boot/bzImage

clean:
	rm -rf $(RUNS) $(OBJ)/initramfs.img $(OBJ)/initramfs-staging

distclean:
	rm -rf $(CACHE)
