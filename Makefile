# down_read_unfair() for Linux 6.12: the front door.  `make help` lists
# the targets.  Every phase prints its elapsed time.

# --- what the series is built on, and by whom ---------------------------
BASE_PKG       := linux-source-6.12
BASE_VERSION   := 6.12.118-1~deb12u1
SERIES_VERSION := 1
AUTHOR_NAME    := rwsem-unfair developers
AUTHOR_EMAIL   := rwsem-unfair@example.org

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

export BASE_PKG BASE_VERSION SERIES_VERSION AUTHOR_NAME AUTHOR_EMAIL
export CACHE TREE OBJ RUNS KBUILD_FLAGS KMAKE KSFT_TARGETS
# ccache through Debian's compiler symlinks: CC stays "gcc" for kbuild.
export PATH := /usr/lib/ccache:/usr/sbin:/usr/bin:/sbin:/bin:$(PATH)
export CCACHE_MAXSIZE ?= 8G

Q := qemu-boot
PHASE := $(Q)/phase.sh

.PHONY: all help deps tree config build initramfs boot demo test bench shell \
	model mutations judge-test test-base ksft-i386 export check-export check-fastpath check-series mbox image-path clean distclean

all: demo

help:
	@echo 'down_read_unfair() for Linux 6.12 ($(BASE_PKG) $(BASE_VERSION))'
	@echo
	@echo 'Main commands:'
	@echo '  make              build the patched kernel, boot it in QEMU, show the demo'
	@echo '  make test         build, boot, run KUnit + kselftests, print "N passed, N failed"'
	@echo
	@echo 'Phases (each can be run alone, each depends on the ones before):'
	@echo '  deps              apt-get install what is missing (needs root)'
	@echo '  tree              import the base into $(TREE), git am the patch folders'
	@echo '  config            tinyconfig + $(Q)/kernel.config via merge_config.sh, verified'
	@echo '  build             kernel, modules and kselftests into $(OBJ) (ccache)'
	@echo '  initramfs         dracut initramfs with the kselftests and the guest runner'
	@echo '  boot / demo       boot QEMU and run the contention demo'
	@echo '  model             spin: the Promela model (in the series, selftests/locking) proves the'
	@echo '                    admission rule and finds a counterexample for each broken one'
	@echo '  test              boot QEMU, run KUnit, locktorture and the whole proc kselftest'
	@echo '                    collection at vm.rwsem_unfair_maps 0 and 2, parse KTAP, check'
	@echo '                    the console; then test-base, then the mutation check (below)'
	@echo '  judge-test        the judge (qemu-boot/results.py) on the golden runs in'
	@echo '                    qemu-boot/judge-tests/; make test runs it first'
	@echo '  test-base         boot the unpatched base kernel, run the series'"'"' kselftests:'
	@echo '                    each case must pass or skip'
	@echo '  ksft-i386         build the proc kselftests for i386 (gcc -m32)'
	@echo '  mutations         build and boot each qemu-boot/mutations/*.patch: the tests'
	@echo '                    must fail on every one'
	@echo '  bench             boot the base kernel and the patched one (at 0 and 1) and'
	@echo '                    print the benchmark table; CSV and plot in $(RUNS)/bench'
	@echo '  shell             boot QEMU with an interactive shell on the serial console'
	@echo
	@echo 'Series:'
	@echo '  export            git format-patch the branch into the three patch folders'
	@echo '  check-export      fail if re-exporting the branch would change a file'
	@echo '  check-fastpath    fail if a fair rwsem fast path compiles differently from base'
	@echo '  check-series      git am onto base, checkpatch --strict, build after each patch'
	@echo '                    (small config) and the tip with PREEMPT_RT, sparse against'
	@echo '                    base, MAINTAINERS-snippet patterns'
	@echo '  mbox              write the whole series as one mbox (for b4 / git am)'
	@echo
	@echo 'Other:'
	@echo '  image-path        print the absolute path of the built bzImage'
	@echo '  clean             remove test run output and the initramfs'
	@echo '  distclean         remove the kernel tree and the object directory too'
	@echo
	@echo 'Variables: CACHE=$(CACHE) TREE=$(TREE) OBJ=$(OBJ)'
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
	@$(PHASE) demo $(Q)/run-qemu.sh demo

test: judge-test initramfs check-export check-fastpath check-series model ksft-i386
	@$(PHASE) test $(Q)/run-qemu.sh test
	@$(PHASE) test-base $(Q)/test-base.sh
	@$(PHASE) mutations $(Q)/mutate.sh

# the judge (results.py) on golden runs, before it judges anything real
judge-test: tree
	@$(PHASE) judge-test python3 $(Q)/judge_test.py $(TREE)/tools/testing/kunit/kunit.py

test-base: initramfs
	@$(PHASE) test-base $(Q)/test-base.sh

ksft-i386: build
	@$(PHASE) ksft-i386 $(Q)/ksft-i386.sh

model: tree
	@$(PHASE) model $(Q)/model.sh

mutations: initramfs
	@$(PHASE) mutations $(Q)/mutate.sh

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
