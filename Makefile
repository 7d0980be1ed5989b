# gpucosim: one entry point.  `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

BUILD  ?= build
GEN    := $(BUILD)/gen
VL     := $(BUILD)/vl
JOBS   ?= 2
# Resolved when a recipe runs, so the .venv that `make setup` creates is used in the same invocation.
PY      = $(shell [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

VERILATOR         ?= verilator
VERILATOR_WANT    := 5.006
VERILATOR_ROOT_INC := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include

APT_PACKAGES := make g++ ccache python3 python3-venv zlib1g-dev verilator libsystemc-dev gtkwave \
                gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf lcov

# ---------------------------------------------------------------- sources
SPEC      := spec/gpucosim.yaml
GEN_FILES := $(GEN)/gpucosim_pkg.sv $(GEN)/gpucosim_spec.h $(GEN)/spec.md
RTL       := rtl/gc_axi_pkg.sv rtl/gc_axi_pins.sv rtl/gc_axil_pins.sv
RTL_INC   := rtl/gc_axi_pins.svh
RTL       += rtl/gc_sem_pkg.sv rtl/gc_eng_pkg.sv rtl/gc_pbdma_pkg.sv rtl/gc_mem_xbar.sv rtl/gc_copy_engine.sv rtl/gc_atomic_unit.sv rtl/gc_mmio_regs.sv \
             rtl/gc_level_cycles.sv rtl/gc_pbdma_sched.sv rtl/gc_pbdma_ctx.sv rtl/gc_pbdma_fetch.sv rtl/gc_pbdma_dec.sv \
             rtl/gc_pbdma_sem.sv rtl/gc_pbdma_eng.sv rtl/gc_pbdma.sv rtl/gc_clock_gate.sv rtl/gc_idle_gate.sv rtl/gpu_top.sv
RTL       += rtl/gc_pbdma_pf.sv
RTL       += rtl/gc_simt_pkg.sv rtl/gc_fp_pkg.sv rtl/gc_compute.sv rtl/gc_sm_icache.sv rtl/gc_sm_div.sv \
             rtl/gc_sm_fpu.sv rtl/gc_sm_fdivsqrt.sv rtl/gc_sm_lsu.sv rtl/gc_sm.sv rtl/gc_simt.sv
# AXI protocol checkers (simulation only) and their macro files (RTL_INC, found through -Irtl)
AXI_CHECK := rtl/gc_axi_check.sv rtl/gc_axil_check.sv
RTL_INC   += rtl/gc_assert.svh rtl/gc_axi_check.svh
RTL       += $(AXI_CHECK)
# gpu_top after the packages it names (gc_simt_pkg::sm_reads_max sizes its AXI checker)
RTL       := $(filter-out rtl/gpu_top.sv,$(RTL)) rtl/gpu_top.sv
# The driver's layers (hostdrv/README.md), lowest first; the ref model (cosim/ref/) is a backend of
# the device layer; the scenarios (hostdrv/tools/) sit on the runtime.
DRV_DEVICE  := hostdrv/device/status.c hostdrv/device/device.c hostdrv/device/backends.c \
               hostdrv/device/backend_rtl.c hostdrv/device/backend_sc.c hostdrv/device/props.c
DRV_MEM     := hostdrv/mem/mem.c
DRV_CHAN    := hostdrv/chan/ring.c hostdrv/chan/pushbuf.c hostdrv/chan/channel.c hostdrv/chan/sem.c
DRV_COMPUTE := hostdrv/compute/elf.c hostdrv/compute/compute.c
DRV_RUNTIME := hostdrv/runtime/runtime.c hostdrv/runtime/timeline.c hostdrv/runtime/workq.c
REF_MODEL   := cosim/ref/backend_ref.c cosim/ref/ref_pbdma.c cosim/ref/ref_bus.c cosim/ref/ref_ce.c cosim/ref/ref_compute.c \
               cosim/ref/ref_fp.c
SCEN_SRC    := hostdrv/tools/scen_common.c hostdrv/tools/scen_copies.c hostdrv/tools/scen_priorities.c \
               hostdrv/tools/scen_kernels.c hostdrv/tools/scen_tmu.c hostdrv/tools/scen_workqueue.c
DRV_CORE    := $(DRV_DEVICE) $(DRV_MEM) $(DRV_CHAN) $(DRV_COMPUTE) $(DRV_RUNTIME) $(REF_MODEL) $(SCEN_SRC)
# the array layer (issue 17): lazy arrays fused into kernels compiled at run time (docs/array.md)
ARRAY_SRC   := hostdrv/array/array.c hostdrv/array/fuse.c hostdrv/array/codegen.c hostdrv/array/progcache.c \
               hostdrv/array/macro.c
DRV_CORE    += $(ARRAY_SRC) hostdrv/tools/scen_fusion.c
COSIM_SRC := cosim/cosim.cpp
UNIT_TESTS  := test_spec test_ring test_pushbuf test_mem test_prio test_ref test_ref_tmu test_elf test_tmd test_api_errors test_fp
COSIM_TESTS := test_copy test_faults test_mutation test_seed000 test_sched test_prefetch test_frontend test_runtime test_diff test_launch test_tmu test_nvclass test_gating \
               test_workq test_props
# The driver suite: run on the rtl backend (the default) and again on every backend in
# OTHER_BACKENDS, as BACKEND@binary (scripts/run_tests.py names those cases BACKEND/case).
DRIVER_SUITE   := test_copy test_faults test_seed000 test_sched test_prefetch test_frontend test_runtime test_launch test_tmu test_nvclass \
                  test_workq test_props
# run on the ref backend as well (its compute engine, cosim/ref/ref_compute.c)
REF_SUITE      := test_compute
OTHER_BACKENDS := ref sc

WARN     := -Wall -Wextra -Werror
INCS     := -Ihostdrv/include -Ihostdrv/tools -I$(GEN) -Icosim -Itests/common -Ifirmware/include
CFLAGS   := -std=c11 $(WARN) -O2 -g $(INCS) -MMD -MP
VL_INCS  := -I$(VL) -isystem $(VERILATOR_ROOT_INC) -isystem $(VERILATOR_ROOT_INC)/vltstd
CXXFLAGS := -std=c++17 $(WARN) -O2 -g $(INCS) $(VL_INCS) -MMD -MP
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDLIBS   := -lz -lm -pthread

# The C++ optimisation of every Verilated model.  Verilator's own makefile (verilated.mk) puts its
# OPT_FAST (-Os) / OPT_GLOBAL (-Os) after the -CFLAGS on each compiler line, so an -O given in
# -CFLAGS never takes effect: they are set here, on its make command line (-MAKEFLAGS), and the
# compiler lines in DIR/build.log show them.  OPT_SLOW (constructors, tracing set-up, run once)
# stays at verilated.mk's -O0 default: it is large and cold.  Debian's ccache, when installed
# (`make setup` installs it), compiles the Verilated C++: after an RTL edit Verilator writes most
# of its output files again unchanged, and ccache answers those from its cache (CCACHE= turns it
# off).
VL_OPT    ?= -O2
CCACHE    ?= $(shell command -v ccache 2>/dev/null)
VL_MAKEFLAGS := OPT_FAST=$(VL_OPT) OPT_GLOBAL=$(VL_OPT) $(if $(CCACHE),OBJCACHE=$(CCACHE))
VL_BUILD  := $(foreach f,$(VL_MAKEFLAGS),-MAKEFLAGS $(f)) --build -j $(JOBS)
# The default model has no tracing (faster, and what run / test / bench use); the traced one,
# $(VL_TR), is built only for waveforms: build/bin/gpucosim-waves (make run WAVES=1, make waves-bin).
VL_COMMON := --cc -O3 --x-assign fast --x-initial fast -I$(GEN) -Irtl -Wno-fatal -CFLAGS "-std=c++17" $(VL_BUILD)
VL_FLAGS  := $(VL_COMMON) --top-module gpu_top
VL_TRACE_FLAGS := --trace-fst --trace-structs
VL_LIB   := $(VL)/Vgpu_top__ALL.a $(VL)/libverilated.a
# COVERAGE=1 (make coverage, mk/tools.mk): every Verilated model with line and toggle coverage
VL_COV   := $(if $(filter 1,$(COVERAGE)),--coverage-line --coverage-toggle)
VL_FLAGS += $(VL_COV)

.PHONY: all help setup check-tools gen lint test test-unit run bench waves clean soak FORCE
FORCE:

help:
	@echo "make setup      install apt packages and the pinned Python packages, then build"
	@echo "make all        generate the spec outputs, Verilate the RTL, build driver, tools and tests"
	@echo "make run        run the default scenario (copy demo); WAVES=1 writes $(BUILD)/waves/run.fst"
	@echo "                ARGS='--seed 7 --bytes 65536' passes options to gpucosim run"
	@echo "make test       all tests (unit, RTL block benches, end to end) -> 'N passed, N failed'"
	@echo "                TESTS=substring runs a subset (^ / \$$ anchor it, a|b: either) and builds only what it needs;"
	@echo "                SEED=N STALL=P run every test with memory-model"
	@echo "                seed N and P % random stalls (GPUCOSIM_SEED / GPUCOSIM_STALL_PCT, +seed=/+stall_pct="
	@echo "                for the RTL benches); a failing case prints the command that reproduces it"
	@echo "make lint       verilator --lint-only -Wall on rtl/, spec check, C warnings, the driver's layers"
	@echo "make soak       long runs: randomized / end-to-end tests over SOAK_SEEDS seeds (default 20: memory"
	@echo "                seed, random stalls, new random programs), the longest CLI runs, and 10^6 SoftFloat"
	@echo "                vectors per RV32F operation (FP_SOAK_CHUNKS x 10^4) through ref_fp and the RTL FPU"
	@echo "                -> one line 'soak: N passed, N failed (...)'; make soak-fp runs the vectors alone"
	@echo "make bench      benchmarks: a table and $(BUILD)/bench/results.json"
	@echo "                (also builds $(BUILD)/bin/gpucosim-lanes32: gpu_top with LANES=32)"
	@echo "make waves      open the last FST in GTKWave with cosim/gpucosim.gtkw"
	@echo "make coverage   line + toggle RTL coverage and driver gcov over the benches and the end-to-end suite:"
	@echo "                $(COV_BUILD)/html/index.html and three figures in $(BUILD)/bench/results.json"
	@echo "make plots      PNG + SVG of the bench figures, copy latency vs time slice, eviction -> $(BUILD)/plots"
	@echo "make sweep      SWEEP_ARGS='--scenario S --param timeslice=500,3000 --seeds 1-4': a grid on Dask"
	@echo "                -> $(BUILD)/sweep/sweep.csv + .png (scripts/sweep.py --help: --scheduler, --slurm)"
	@echo "make cocotb     only the cocotb + cocotbext-axi peer check of gpu_top's BAR0 and memory port (part of make test)"
	@echo "make clean      remove $(BUILD)/"

# ---------------------------------------------------------------- setup
setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "setup: apt packages present"; fi
	@if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
	@.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
	@echo "setup: Python packages from requirements.txt are in .venv"
	@$(MAKE) --no-print-directory all

check-tools:
	@v=$$($(VERILATOR) --version 2>/dev/null | awk '{print $$2}'); \
	if [ -z "$$v" ]; then echo "error: verilator not found: run 'make setup'" >&2; exit 1; fi; \
	if [ "$$v" != "$(VERILATOR_WANT)" ] && [ -z "$$VERILATOR_ANY" ]; then \
	  echo "error: gpucosim is pinned to Verilator $(VERILATOR_WANT) (Debian bookworm's); found $$v." >&2; \
	  echo "       Run 'make setup' on Debian bookworm, or set VERILATOR_ANY=1 to try this version anyway." >&2; \
	  exit 1; fi
	@$(PY) -c 'import yaml, junit_xml, softfloatpy' 2>/dev/null || \
	  { echo "error: Python packages missing (PyYAML, junit-xml, softfloatpy): run 'make setup'" >&2; exit 1; }

# ---------------------------------------------------------------- generated spec
gen: $(GEN_FILES)
$(GEN_FILES) &: $(SPEC) scripts/gen_spec.py
	@mkdir -p $(GEN)
	$(PY) scripts/gen_spec.py --spec $(SPEC) --out $(GEN)
	@touch $(GEN_FILES)

# ---------------------------------------------------------------- Verilated model
# $(call vl_flags,DIR,options): DIR/.flags holds the options a model was built with, rewritten only
# when they change, so that a change of options (VL_OPT=..., CCACHE=) builds the model again.
define vl_flags
$(1)/.flags: FORCE
	@mkdir -p $(1)
	@printf '%s\n' '$(2)' | cmp -s - $$@ || printf '%s\n' '$(2)' >$$@
endef
# $(call vl_model,DIR,more verilator options): gpu_top Verilated into DIR (DIR/.stamp), with
# Verilator's run-time library built for it as DIR/libverilated.a
define vl_model
$(call vl_flags,$(1),$(VL_FLAGS) $(2) | $(VL_MAKEFLAGS))
$(1)/.stamp: $(RTL) $(RTL_INC) $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(1)/.flags | check-tools
	@mkdir -p $(1)
	$(VERILATOR) $(VL_FLAGS) -Mdir $(1) $(2) $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(RTL) >$(1)/build.log 2>&1 || \
	  { cat $(1)/build.log; exit 1; }
	$(MAKE) -s -C $(1) -f $(abspath cosim/verilated_lib.mk) -j $(JOBS) $(VL_MAKEFLAGS) libverilated.a \
	  >>$(1)/build.log 2>&1 || { cat $(1)/build.log; exit 1; }
	@touch $$@
endef
$(eval $(call vl_model,$(VL),))

# ---------------------------------------------------------------- C / C++ objects, two variants
# rel: optimised, for run and bench.  san: ASan + UBSan, for the tests.
define variant
$(BUILD)/$(1)/obj/%.c.o: %.c $(GEN)/gpucosim_spec.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $(2) -c $$< -o $$@
$(BUILD)/$(1)/obj/%.cpp.o: %.cpp $(GEN)/gpucosim_spec.h $(VL)/.stamp
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(CXXFLAGS) $(2) -c $$< -o $$@
$(BUILD)/$(1)/libgpucosim.a: $(patsubst %,$(BUILD)/$(1)/obj/%.o,$(DRV_CORE) $(COSIM_SRC))
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(eval $(call variant,rel,))
$(eval $(call variant,san,$(SAN)))

# Link: the driver library, the harness, the Verilated model.
$(BUILD)/bin/gpucosim: $(BUILD)/rel/obj/hostdrv/tools/gpucosim.c.o $(BUILD)/rel/libgpucosim.a $(VL)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $< $(BUILD)/rel/libgpucosim.a $(VL_LIB) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/san/obj/tests/unit/%.c.o $(BUILD)/san/libgpucosim.a $(VL)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $< $(BUILD)/san/libgpucosim.a $(VL_LIB) $(LDLIBS)
$(BUILD)/tests/%: $(BUILD)/san/obj/tests/cosim/%.c.o $(BUILD)/san/libgpucosim.a $(VL)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $< $(BUILD)/san/libgpucosim.a $(VL_LIB) $(LDLIBS)

# ---------------------------------------------------------------- RTL block benches
# $(call rtl_bench,NAME,RTL files[,more verilator options]): tests/rtl/NAME_tb_top.sv + tests/rtl/NAME_tb.cpp
# -> build/rtl_NAME/VNAME_tb_top
define rtl_bench
$(BUILD)/rtl_$(1)/V$(1)_tb_top: $(2) tests/rtl/$(1)_tb_top.sv tests/rtl/$(1)_tb.cpp $(GEN)/gpucosim_pkg.sv \
    $(GEN)/gpucosim_spec.h rtl/lint.vlt $(RTL_INC) cosim/harness.h cosim/axi_mem.h cosim/gc_cov.h | check-tools
	@mkdir -p $(BUILD)
	$(VERILATOR) --cc --exe $(VL_BUILD) -O2 -Wno-fatal -I$(GEN) -Irtl -CFLAGS -I$(CURDIR)/$(GEN) \
	  -CFLAGS -I$(CURDIR)/cosim $(3) $(VL_COV) \
	  $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(2) tests/rtl/$(1)_tb_top.sv $(CURDIR)/tests/rtl/$(1)_tb.cpp \
	  --top-module $(1)_tb_top -Mdir $(BUILD)/rtl_$(1) >$(BUILD)/rtl_$(1).log 2>&1 || { cat $(BUILD)/rtl_$(1).log; exit 1; }
endef
RTL_BENCHES := ce xbar atomic pbdma fpu
$(eval $(call rtl_bench,ce,rtl/gc_axi_pkg.sv rtl/gc_eng_pkg.sv rtl/gc_copy_engine.sv tests/rtl/tb_cli_pins.sv \
  tests/rtl/tb_eng_pins.sv rtl/gc_axi_check.sv,-Itests/rtl))
$(BUILD)/rtl_ce/Vce_tb_top: tests/rtl/tb_eng_pins.svh
$(eval $(call rtl_bench,xbar,rtl/gc_axi_pkg.sv rtl/gc_axi_pins.sv rtl/gc_mem_xbar.sv rtl/gc_axi_check.sv))
$(eval $(call rtl_bench,atomic,rtl/gc_axi_pkg.sv rtl/gc_sem_pkg.sv rtl/gc_atomic_unit.sv tests/rtl/tb_cli_pins.sv rtl/gc_axi_check.sv))
$(eval $(call rtl_bench,pbdma,$(RTL)))
# The FP units against SoftFloat vectors (scripts/gen_fp_vectors.py: >= 10^4 per operation)
FP_RTL     := rtl/gc_fp_pkg.sv rtl/gc_sm_fpu.sv rtl/gc_sm_fdivsqrt.sv
FP_VECTORS := $(BUILD)/fpvec/vectors.txt
$(FP_VECTORS): scripts/gen_fp_vectors.py
	@mkdir -p $(dir $@)
	$(PY) scripts/gen_fp_vectors.py --out $@
$(eval $(call rtl_bench,fpu,$(FP_RTL),-CFLAGS -DFPU_VECTORS='\"$(abspath $(FP_VECTORS))\"'))
$(BUILD)/rtl_fpu/Vfpu_tb_top: | $(FP_VECTORS)
RTL_TBS := $(foreach b,$(RTL_BENCHES),$(BUILD)/rtl_$(b)/V$(b)_tb_top)

TEST_BINS := $(addprefix $(BUILD)/tests/,$(UNIT_TESTS) $(COSIM_TESTS))

all: check-tools $(GEN_FILES) $(BUILD)/bin/gpucosim $(TEST_BINS) $(RTL_TBS)

# ---------------------------------------------------------------- sc backend (SystemC plugin)
# gpu_top Verilated a second time, with --sc and the prefix Vgpu_top_sc, into build/vl_sc, and
# the SystemC / TLM-2.0 top of cosim/sc/ around it, linked with its own Verilated runtime and
# libsystemc into build/lib/libgpucosim_sc.so.  hostdrv/device/backend_sc.c (in DRV_CORE) dlopen()s
# it on the first sc open, so nothing else links libsystemc and the two Verilated runtimes never
# meet.  Built with -fPIC (-fno-semantic-interposition: the model's calls stay direct, ~10 %
# faster) and without sanitizers (the ASan test binaries load it uninstrumented).
# SYSTEMC_INCLUDE / SYSTEMC_LIBDIR point at another SystemC (default: Debian's, in system paths).
comma       := ,
VL_SC       := $(BUILD)/vl_sc
SC_PLUGIN   := $(BUILD)/lib/libgpucosim_sc.so
SC_SRC      := cosim/sc/sc_top.cpp cosim/sc/sc_memory.cpp cosim/sc/sc_backend.cpp
SC_OBJ      := $(patsubst %,$(BUILD)/sc/obj/%.o,$(SC_SRC))
SC_INC      := $(if $(SYSTEMC_INCLUDE),-isystem $(SYSTEMC_INCLUDE))
SC_LIBS     := $(if $(SYSTEMC_LIBDIR),-L$(SYSTEMC_LIBDIR) -Wl$(comma)-rpath$(comma)$(SYSTEMC_LIBDIR)) -lsystemc
SC_CXXFLAGS := -std=c++17 $(WARN) -O2 -g -fPIC -fno-semantic-interposition -Ihostdrv/include -I$(GEN) -Icosim/sc $(SC_INC) -isystem $(VL_SC) \
               -isystem $(VERILATOR_ROOT_INC) -isystem $(VERILATOR_ROOT_INC)/vltstd -faligned-new \
               -DVM_COVERAGE=0 -DVM_SC=1 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
VL_SC_FLAGS := --sc --prefix Vgpu_top_sc -O3 --x-assign fast --x-initial fast --trace-fst --trace-structs \
               --top-module gpu_top -Mdir $(VL_SC) -I$(GEN) -Irtl -Wno-fatal \
               -CFLAGS "-std=c++17 -fPIC -fno-semantic-interposition $(SC_INC)" $(VL_BUILD)

$(eval $(call vl_flags,$(VL_SC),$(VL_SC_FLAGS) | $(VL_MAKEFLAGS)))
$(VL_SC)/.stamp: $(RTL) $(RTL_INC) $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(VL_SC)/.flags | check-tools
	@mkdir -p $(VL_SC)
	$(VERILATOR) $(VL_SC_FLAGS) $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(RTL) >$(VL_SC)/build.log 2>&1 || \
	  { cat $(VL_SC)/build.log; exit 1; }
	$(MAKE) -s -C $(VL_SC) -f $(abspath cosim/sc/verilated_lib_sc.mk) -j $(JOBS) $(VL_MAKEFLAGS) libverilated_sc.a \
	  >>$(VL_SC)/build.log 2>&1 || { cat $(VL_SC)/build.log; exit 1; }
	@touch $@

$(BUILD)/sc/obj/%.cpp.o: %.cpp $(GEN)/gpucosim_spec.h $(VL_SC)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) -MMD -MP -c $< -o $@

$(SC_PLUGIN): $(SC_OBJ) $(VL_SC)/.stamp cosim/sc/plugin.map
	@mkdir -p $(dir $@)
	$(CXX) -shared -o $@ $(SC_OBJ) $(VL_SC)/Vgpu_top_sc__ALL.a $(VL_SC)/libverilated_sc.a $(SC_LIBS) -lz -pthread \
	  -Wl,--version-script=cosim/sc/plugin.map -Wl,--no-undefined

# where the array layer finds the kernel build inputs (firmware/, gca_ops.h, the generated spec
# header) and picolibc by default ($GPUCOSIM_ROOT / $GPUCOSIM_PICOLIBC override them)
$(BUILD)/rel/obj/hostdrv/array/array.c.o $(BUILD)/san/obj/hostdrv/array/array.c.o: \
  CFLAGS += -DGCA_ROOT_DEFAULT='"$(CURDIR)"' -DGCA_GEN_DEFAULT='"$(abspath $(GEN))"' \
  -DGCA_PICOLIBC_DEFAULT='"$(PICOLIBC)"'

# where the stub looks last for the plugin (first: $$GPUCOSIM_SC_PLUGIN, then next to the executable)
$(BUILD)/rel/obj/hostdrv/device/backend_sc.c.o $(BUILD)/san/obj/hostdrv/device/backend_sc.c.o: \
  CFLAGS += -DGC_SC_PLUGIN_DEFAULT='"$(abspath $(SC_PLUGIN))"'

# sc-only checks (reopen, refusal of a second device, waves, watchdog, rtl vs sc in one process,
# gc_sc_run: the driver in an SC_THREAD against the mailbox and rtl, its errors)
SC_TESTS  := test_sc
TEST_BINS += $(addprefix $(BUILD)/tests/,$(SC_TESTS))
all: $(SC_PLUGIN) $(addprefix $(BUILD)/tests/,$(SC_TESTS))

.PHONY: lint-sc
lint: lint-sc
lint-sc: $(VL_SC)/.stamp $(GEN_FILES)
	$(CXX) $(SC_CXXFLAGS) -fsyntax-only $(SC_SRC)

-include $(wildcard $(BUILD)/sc/obj/cosim/sc/*.d)

# ---------------------------------------------------------------- SIMT core (issue 5)
# SIMT_RTL: the compute engine (gc_compute: the task management unit) and the SMs (gc_sm + icache, LSU,
# divider), wrapped by gc_simt.  Firmware: crt0, link script, device runtime and the C kernels
# (firmware/), built with riscv64-unknown-elf-gcc into $(FW)/kernels.elf; the instruction tests
# (tests/rtl/simt_isa.S) into $(FW)/simt_isa.elf.  The SIMT block bench is built three times:
# build/rtl_simt8/test_simt8 (LANES 8, the default), build/rtl_simt32/test_simt32 (LANES 32),
# build/rtl_simt2sm/test_simt2sm (2 SMs) and build/rtl_simtnofpu/test_simtnofpu (FPU = 0).
SIMT_RTL   := rtl/gc_axi_pkg.sv rtl/gc_axi_pins.sv
SIMT_RTL   += rtl/gc_sem_pkg.sv rtl/gc_simt_pkg.sv rtl/gc_fp_pkg.sv rtl/gc_mem_xbar.sv rtl/gc_atomic_unit.sv \
              rtl/gc_compute.sv rtl/gc_sm_icache.sv rtl/gc_sm_div.sv rtl/gc_sm_fpu.sv rtl/gc_sm_fdivsqrt.sv \
              rtl/gc_sm_lsu.sv rtl/gc_sm.sv rtl/gc_simt.sv rtl/gc_axi_check.sv
FW         := $(BUILD)/firmware
RV_CC      ?= riscv64-unknown-elf-gcc
# Kernels are RV32IMAF (ilp32f) and may use picolibc's libm (Debian picolibc-riscv64-unknown-elf):
# it has no rv32imaf multilib, so the rv32imf / ilp32f one (same ABI, no atomics inside) is linked.
# -ffp-contract=off: a * b + c in C stays two roundings (the hosts' checks compute it so).
PICOLIBC   ?= /usr/lib/picolibc/riscv64-unknown-elf
FW_ARCH    := -march=rv32imaf -mabi=ilp32f
FW_CFLAGS_COMMON := -O2 -mcmodel=medany -mno-relax -ffreestanding -fno-builtin -ffp-contract=off \
              -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror -Ifirmware/include -I$(GEN) \
              -isystem $(PICOLIBC)/include -MMD -MP
FW_CFLAGS  := $(FW_ARCH) $(FW_CFLAGS_COMMON)
FW_LIBC    := $(PICOLIBC)/lib/release/rv32imf/ilp32f/libc.a
# --emit-relocs keeps the relocations in the image, so that hostdrv's loader can move it when its
# link address is taken (every image of firmware/link.ld links at the same address)
FW_LDFLAGS := -nostdlib -nostartfiles -Wl,--no-relax -Wl,--emit-relocs -T firmware/link.ld
FW_SRC     := firmware/crt0.S firmware/lib.c firmware/kernels/vecadd.c firmware/kernels/reduce.c \
              firmware/kernels/histogram.c firmware/kernels/divergent.c firmware/kernels/tmu.c \
              firmware/kernels/float.c firmware/kernels/workq.c
FW_OBJ     := $(patsubst %,$(FW)/obj/%.o,$(FW_SRC))
# other.elf: a second image at the same address (tests/firmware/other_kernels.c, built like a
# user's kernel file outside firmware/, with absolute addressing: firmware/README.md)
OTHER_OBJ  := $(FW)/obj/firmware/crt0.S.o $(FW)/obj/firmware/lib.c.o $(FW)/obj/tests/firmware/other_kernels.c.o
FW_ELFS    := $(FW)/kernels.elf $(FW)/simt_isa.elf $(FW)/other.elf $(FW)/kernels_soft.elf
$(FW)/obj/tests/firmware/other_kernels.c.o: FW_CFLAGS += -mcmodel=medlow
# The float kernels again for RV32IMA (ilp32, libgcc's soft float): kernels_soft.elf, for the
# soft_vs_hw_float_speedup figure of `make bench`.
FW_SOFT_CFLAGS := -march=rv32ima -mabi=ilp32 $(FW_CFLAGS_COMMON)
FW_SOFT_LIBC   := $(PICOLIBC)/lib/release/rv32im/ilp32/libc.a
FW_SOFT_OBJ    := $(patsubst %,$(FW)/soft/obj/%.o,firmware/crt0.S firmware/lib.c firmware/kernels/float.c)

.PHONY: check-riscv
check-riscv:
	@command -v $(RV_CC) >/dev/null 2>&1 || \
	  { echo "error: $(RV_CC) not found (Debian gcc-riscv64-unknown-elf): run 'make setup'" >&2; exit 1; }
$(FW)/obj/%.c.o: %.c $(GEN)/gpucosim_spec.h | check-riscv
	@mkdir -p $(dir $@)
	$(RV_CC) $(FW_CFLAGS) -c $< -o $@
$(FW)/obj/%.S.o: %.S $(GEN)/gpucosim_spec.h | check-riscv
	@mkdir -p $(dir $@)
	$(RV_CC) $(FW_CFLAGS) -c $< -o $@
$(FW)/kernels.elf: $(FW_OBJ) firmware/link.ld
	$(RV_CC) $(FW_CFLAGS) $(FW_LDFLAGS) -o $@ $(FW_OBJ) -Wl,--start-group $(FW_LIBC) -lgcc -Wl,--end-group
$(FW)/other.elf: $(OTHER_OBJ) firmware/link.ld
	$(RV_CC) $(FW_CFLAGS) $(FW_LDFLAGS) -o $@ $(OTHER_OBJ) -lgcc
$(FW)/soft/obj/%.c.o: %.c $(GEN)/gpucosim_spec.h | check-riscv
	@mkdir -p $(dir $@)
	$(RV_CC) $(FW_SOFT_CFLAGS) -c $< -o $@
$(FW)/soft/obj/%.S.o: %.S $(GEN)/gpucosim_spec.h | check-riscv
	@mkdir -p $(dir $@)
	$(RV_CC) $(FW_SOFT_CFLAGS) -c $< -o $@
$(FW)/kernels_soft.elf: $(FW_SOFT_OBJ) firmware/link.ld
	$(RV_CC) $(FW_SOFT_CFLAGS) $(FW_LDFLAGS) -o $@ $(FW_SOFT_OBJ) -Wl,--start-group $(FW_SOFT_LIBC) -lgcc -Wl,--end-group
# The instruction tests use the Zicsr mnemonics (csrr ...) and sit at another address than
# kernels.elf, so that both can be loaded at once.
$(FW)/simt_isa.elf: tests/rtl/simt_isa.S tests/rtl/simt_isa_list.h firmware/link.ld $(GEN)/gpucosim_spec.h | check-riscv
	@mkdir -p $(dir $@)
	$(RV_CC) -march=rv32imaf_zicsr -mabi=ilp32 -mno-relax -nostdlib -nostartfiles -I$(GEN) -Itests/rtl \
	  -Wl,--no-relax -T firmware/link.ld -Wl,--defsym=GC_LOAD_BASE=0x83800000 -Wl,-e,isa_main -o $@ $<

# Verilator's own makefile writes its .d files without -MP: once a file they name is gone (moved),
# its make stops with "No rule to make target".  $(call drop_stale_dep,DIR,OBJ) removes DIR/OBJ.d
# and DIR/OBJ.o when a file that DIR/OBJ.d names no longer exists, so OBJ.o is simply rebuilt.
drop_stale_dep = d=$(1)/$(2).d; [ ! -f $$$$d ] || for f in $$$$(sed 's/^[^:]*://; s/\\$$$$//' $$$$d); do \
  [ -e "$$$$f" ] || [ -e "$(1)/$$$$f" ] || { rm -f $$$$d $(1)/$(2).o; break; }; done
# $(call simt_bench,NAME,verilator -G options): build/rtl_NAME/test_NAME
define simt_bench
$(BUILD)/rtl_$(1)/test_$(1): $(SIMT_RTL) $(RTL_INC) tests/rtl/simt_tb_top.sv tests/rtl/simt_tb.cpp tests/rtl/simt_isa_list.h \
    hostdrv/compute/elf.c hostdrv/compute/compute.c hostdrv/include/gpucosim/elf.h hostdrv/include/gpucosim/compute.h \
    firmware/include/gc_kernels.h cosim/axi_mem.h cosim/harness.h cosim/gc_cov.h tests/common/tcase.h $(GEN)/gpucosim_pkg.sv \
    $(GEN)/gpucosim_spec.h rtl/lint.vlt $(RTL_INC) | check-tools
	@mkdir -p $(BUILD)
	@$(call drop_stale_dep,$(BUILD)/rtl_$(1),simt_tb)
	$(VERILATOR) --cc --exe $(VL_BUILD) -O2 -Wno-fatal $(2) $(VL_COV) -I$(GEN) -Irtl \
	  -CFLAGS "-I$(CURDIR)/$(GEN) -I$(CURDIR)/hostdrv/include -I$(CURDIR)/cosim -I$(CURDIR)/tests/common \
	  -I$(CURDIR)/tests/rtl -I$(CURDIR)/firmware/include -DFPU_VECTORS='\"$(abspath $(FP_VECTORS))\"'" \
	  $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(SIMT_RTL) tests/rtl/simt_tb_top.sv $(CURDIR)/tests/rtl/simt_tb.cpp \
	  --top-module simt_tb_top -Mdir $(BUILD)/rtl_$(1) -o test_$(1) >$(BUILD)/rtl_$(1).log 2>&1 || \
	  { cat $(BUILD)/rtl_$(1).log; exit 1; }
endef
$(eval $(call simt_bench,simt8,))
$(eval $(call simt_bench,simt32,-GLANES=32))
$(eval $(call simt_bench,simt2sm,-GNSM=2))
# the SMs without the FPU (gc_sm FPU = 0): F instructions fault; its own short case list
$(eval $(call simt_bench,simtnofpu,-GFPU=0 -CFLAGS -DSIMT_TB_FPU=0))
# the mutation build: gc_sm's scoreboard rules can be dropped one at a time (+gc_mutate=N, read
# only under +define+GC_MUTATIONS); its cases show the regular checks catch each broken rule
$(eval $(call simt_bench,simtmut,+define+GC_MUTATIONS -CFLAGS -DSIMT_TB_MUTATIONS=1))
SIMT_TBS   := $(BUILD)/rtl_simt8/test_simt8 $(BUILD)/rtl_simt32/test_simt32 $(BUILD)/rtl_simt2sm/test_simt2sm \
              $(BUILD)/rtl_simtnofpu/test_simtnofpu $(BUILD)/rtl_simtmut/test_simtmut
TEST_BINS  += $(SIMT_TBS)
all: $(FW_ELFS) $(SIMT_TBS)
$(SIMT_TBS): | $(FW_ELFS) $(FP_VECTORS)

# Host side: the ELF loader and TMD unit tests, and the end-to-end compute test (tests/compute/)
$(BUILD)/tests/%: $(BUILD)/san/obj/tests/compute/%.c.o $(BUILD)/san/libgpucosim.a $(VL)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $< $(BUILD)/san/libgpucosim.a $(VL_LIB) $(LDLIBS)
SIMT_FW_DEF := -Ifirmware/include -DGC_FIRMWARE_DIR='"$(abspath $(FW))"'
$(BUILD)/san/obj/tests/compute/test_compute.c.o $(BUILD)/san/obj/tests/unit/test_elf.c.o: CFLAGS += $(SIMT_FW_DEF)
COMPUTE_TESTS := test_compute
TEST_BINS  += $(addprefix $(BUILD)/tests/,$(COMPUTE_TESTS))
all: $(addprefix $(BUILD)/tests/,$(COMPUTE_TESTS) test_elf test_tmd)
$(addprefix $(BUILD)/tests/,$(COMPUTE_TESTS) test_elf): | $(FW_ELFS)
# the array layer's tests (tests/array/): on rtl, ref (REF_SUITE) and sc (SC_ONCE)
$(BUILD)/tests/%: $(BUILD)/san/obj/tests/array/%.c.o $(BUILD)/san/libgpucosim.a $(VL)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $< $(BUILD)/san/libgpucosim.a $(VL_LIB) $(LDLIBS)
ARRAY_TESTS := test_array
TEST_BINS  += $(addprefix $(BUILD)/tests/,$(ARRAY_TESTS))
REF_SUITE  += $(ARRAY_TESTS)
SC_ONCE    := $(ARRAY_TESTS)
all: $(addprefix $(BUILD)/tests/,$(ARRAY_TESTS))
$(addprefix $(BUILD)/tests/,$(ARRAY_TESTS)): | $(FW_ELFS)
# kernels through the runtime (tests/cosim/test_launch.c)
$(BUILD)/san/obj/tests/cosim/test_launch.c.o $(BUILD)/san/obj/tests/cosim/test_diff.c.o \
  $(BUILD)/san/obj/tests/cosim/test_tmu.c.o $(BUILD)/san/obj/tests/cosim/test_gating.c.o \
  $(BUILD)/san/obj/tests/cosim/test_workq.c.o $(BUILD)/san/obj/tests/cosim/test_props.c.o: CFLAGS += $(SIMT_FW_DEF)
$(BUILD)/tests/test_launch $(BUILD)/tests/test_diff $(BUILD)/tests/test_tmu $(BUILD)/tests/test_gating \
  $(BUILD)/tests/test_workq $(BUILD)/tests/test_props: | $(FW_ELFS)
$(BUILD)/san/obj/tests/cosim/test_prefetch.c.o: CFLAGS += $(SIMT_FW_DEF)
$(BUILD)/tests/test_prefetch: | $(FW_ELFS)
# the CLI's kernels scenario finds kernels.elf there by default (--image overrides)
$(BUILD)/rel/obj/hostdrv/tools/gpucosim.c.o: CFLAGS += -DGC_FIRMWARE_DIR='"$(abspath $(FW))"'
$(BUILD)/bin/gpucosim: | $(FW_ELFS)

bench: $(SIMT_TBS)

.PHONY: lint-simt firmware
firmware: $(FW_ELFS)
lint: lint-simt
# (the SIMT RTL is linted with gpu_top by `lint`; this adds the compute tests' C)
lint-simt: check-tools $(GEN_FILES)
	$(CC) -std=c11 $(WARN) -fsyntax-only $(INCS) -Ifirmware/include $(wildcard tests/compute/*.c)

-include $(wildcard $(FW)/obj/firmware/*.d $(FW)/obj/firmware/kernels/*.d $(FW)/obj/tests/firmware/*.d \
  $(FW)/soft/obj/firmware/*.d $(FW)/soft/obj/firmware/kernels/*.d)

# ---------------------------------------------------------------- RV32F vectors (issue 15)
# The same SoftFloat vectors ($(FP_VECTORS), above) through the ref model's FPU
# (cosim/ref/ref_fp.c): tests/unit/test_fp.c.  `make soak` (and `make soak-fp` alone):
# FP_SOAK_CHUNKS files of 10^4 vectors per operation (seeds 1001, 1002, ...; default 100 chunks:
# 10^6 per operation), each through test_fp and the RTL FPU's bench (scripts/soak.py --fp-chunks).
FP_SOAK_CHUNKS ?= 100
$(BUILD)/san/obj/tests/unit/test_fp.c.o: CFLAGS += -DGC_FP_VECTORS_DEFAULT='"$(abspath $(FP_VECTORS))"'
$(BUILD)/tests/test_fp: | $(FP_VECTORS)
SOAK_FP_ARGS = --fp-chunks $(FP_SOAK_CHUNKS) --fp-test $(BUILD)/tests/test_fp --fpu-tb $(BUILD)/rtl_fpu/Vfpu_tb_top \
               --fp-dir $(BUILD)/fpvec

.PHONY: soak-fp
soak-fp: $(BUILD)/tests/test_fp $(BUILD)/rtl_fpu/Vfpu_tb_top
	BUILD=$(BUILD) $(PY) scripts/soak.py --seeds 0 --no-cli --jobs $(JOBS) --bin $(BUILD)/bin/gpucosim $(SOAK_FP_ARGS)

# ---------------------------------------------------------------- main targets
WAVES ?= 0
ARGS  ?=
RUN_WAVES := $(if $(filter 1 yes true,$(WAVES)),--waves $(BUILD)/waves/run.fst,)
# WAVES=1: the traced build (build/bin/gpucosim-waves), built for it
RUN_BIN   := $(BUILD)/bin/gpucosim$(if $(RUN_WAVES),-waves)
run: $(RUN_BIN)
	@mkdir -p $(BUILD)/waves
	$(RUN_BIN) run copy $(RUN_WAVES) $(ARGS)

# coverage, plots, sweeps, the cocotb build and the AXI checker's test (before the test lists:
# TESTS=x selects among them when the makefile is read)
include mk/tools.mk

# Every test program: BACKEND@PROGRAM runs PROGRAM's cases on that backend (scripts/run_tests.py).
TEST_PROGS = $(TEST_BINS) $(RTL_TBS) \
  tests/tools/test_gen_spec.py tests/tools/test_gtkw.py tests/tools/test_cli.py tests/tools/test_run_tests.py \
  tests/tools/test_axi_ports.py \
  tests/tools/test_layers.py tests/tools/test_coverage.py tests/tools/test_scenarios.py \
  tests/tools/test_sweep.py tests/tools/test_cocotb.py \
  $(foreach b,$(OTHER_BACKENDS),$(foreach t,$(DRIVER_SUITE),$(b)@$(BUILD)/tests/$(t))) \
  $(foreach t,$(REF_SUITE),ref@$(BUILD)/tests/$(t)) $(foreach t,$(SC_ONCE),sc@$(BUILD)/tests/$(t))
# What a program needs built besides itself (a sc@ program: the sc plugin as well)
NEEDS_test_sc           = $(SC_PLUGIN)
NEEDS_test_cli.py       = $(BUILD)/bin/gpucosim $(SC_PLUGIN)
NEEDS_test_scenarios.py = $(BUILD)/bin/gpucosim $(SC_PLUGIN) $(FW_ELFS)
NEEDS_test_gtkw.py      = $(BUILD)/bin/gpucosim-waves
NEEDS_test_gen_spec.py  = $(GEN_FILES)
NEEDS_test_layers.py    = $(BUILD)/rel/libgpucosim.a
NEEDS_test_sweep.py     = $(BUILD)/bin/gpucosim $(FW_ELFS)
NEEDS_test_cocotb.py    = $(COCOTB_SIM) $(FW_ELFS)
needs_of = $(if $(filter %.py,$(1)),,$(lastword $(subst @, ,$(1)))) $(NEEDS_$(notdir $(1))) \
           $(if $(filter sc@%,$(1)),$(SC_PLUGIN))

# make test builds everything; make test TESTS=x only the programs that may hold a case matching x
# (scripts/run_tests.py --needs) and what they need.
ifneq ($(TESTS),)
ifneq ($(filter test,$(MAKECMDGOALS)),)
TEST_SEL  := $(shell BUILD=$(BUILD) $(PY) scripts/run_tests.py --needs --filter '$(TESTS)' $(TEST_PROGS))
TEST_DEPS := check-tools $(GEN_FILES) $(sort $(foreach p,$(TEST_SEL),$(call needs_of,$(p))))
endif
else
TEST_SEL  = $(TEST_PROGS)
# the waveform tests (tests/tools/test_gtkw.py) ask for waveforms: the traced model as well
TEST_DEPS := all $(BUILD)/bin/gpucosim-waves
endif
test: $(TEST_DEPS)
	@$(if $(strip $(TEST_SEL)),,echo "make test: no test program has a case matching TESTS='$(TESTS)'" >&2; exit 1)
	BUILD=$(BUILD) $(PY) scripts/run_tests.py --jobs $(JOBS) --junit $(BUILD)/test-results/junit.xml \
	  $(if $(TESTS),--filter '$(TESTS)') $(if $(SEED),--seed $(SEED)) $(if $(STALL),--stall $(STALL)) $(TEST_SEL)

# Soak: every case of the randomized and end-to-end tests once per seed (memory-model seed, random
# stalls, test_diff's fuzz seed), the CLI's longest runs and the FP vector chunks (scripts/soak.py);
# hours with the default 20 seeds.  One summary line at the end.
SOAK_SEEDS ?= 20
SOAK_TESTS := test_diff test_frontend test_mutation test_copy test_seed000 test_tmu
soak: all
	BUILD=$(BUILD) $(PY) scripts/soak.py --seeds $(SOAK_SEEDS) --jobs $(JOBS) --bin $(BUILD)/bin/gpucosim \
	  $(SOAK_FP_ARGS) $(addprefix $(BUILD)/tests/,$(SOAK_TESTS))

# $(call model_bin,BINARY,MODEL DIR,TAG[,cosim.cpp defines]): the CLI linked with the rel driver
# objects and cosim.cpp compiled again (into $(BUILD)/TAG/obj) against another Verilation of gpu_top
# (same prefix Vgpu_top, so only the harness is compiled again).
define model_bin
$(BUILD)/$(3)/obj/cosim/cosim.cpp.o: cosim/cosim.cpp $(GEN)/gpucosim_spec.h $(2)/.stamp
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(subst -I$(VL) ,-I$(2) ,$$(CXXFLAGS)) $(4) -c $$< -o $$@
$(1): $(BUILD)/rel/obj/hostdrv/tools/gpucosim.c.o $(patsubst %,$(BUILD)/rel/obj/%.o,$(DRV_CORE)) \
    $(BUILD)/$(3)/obj/cosim/cosim.cpp.o $(2)/.stamp | $(FW_ELFS)
	@mkdir -p $$(dir $$@)
	$$(CXX) -o $$@ $$< $(patsubst %,$(BUILD)/rel/obj/%.o,$(DRV_CORE)) $(BUILD)/$(3)/obj/cosim/cosim.cpp.o \
	  $(2)/Vgpu_top__ALL.a $(2)/libverilated.a $$(LDLIBS)
-include $$(wildcard $(BUILD)/$(3)/obj/cosim/*.d)
endef

# The traced model: gpu_top Verilated with FST tracing into build/vl_trace, linked into
# build/bin/gpucosim-waves, the only binary that writes waveforms (--waves / GPUCOSIM_WAVES; the
# default build/bin/gpucosim refuses them with a line naming this one).  Built by `make run WAVES=1`,
# `make waves-bin` and the waveform tests.
VL_TR       := $(BUILD)/vl_trace
GPUCOSIM_TR := $(BUILD)/bin/gpucosim-waves
$(eval $(call vl_model,$(VL_TR),$(VL_TRACE_FLAGS)))
$(eval $(call model_bin,$(GPUCOSIM_TR),$(VL_TR),trace,-DGC_COSIM_TRACE=1))
.PHONY: waves-bin
waves-bin: $(GPUCOSIM_TR)

# The full device with 32-lane SMs for the bench (sim_cycles_per_s_simt32): gpu_top Verilated again
# with -GLANES=32 into build/vl_lanes32, linked into build/bin/gpucosim-lanes32.  Built by
# `make bench` only.
VL32       := $(BUILD)/vl_lanes32
GPUCOSIM32 := $(BUILD)/bin/gpucosim-lanes32
$(eval $(call vl_model,$(VL32),-GLANES=32))
$(eval $(call model_bin,$(GPUCOSIM32),$(VL32),lanes32))

# The harness on a trivial model, for sim_speed_vs_counter: cosim/speed/counter_top.sv (gpu_top's
# ports, a counter inside) Verilated with the prefix Vgpu_top into build/vl_counter, cosim.cpp
# compiled against it, driven by cosim/speed/cosim_speed.c: build/bin/cosim-speed-counter.
VL_CNT      := $(BUILD)/vl_counter
SPEED_CNT   := $(BUILD)/bin/cosim-speed-counter
$(eval $(call vl_flags,$(VL_CNT),$(VL_COMMON) | $(VL_MAKEFLAGS)))
$(VL_CNT)/.stamp: cosim/speed/counter_top.sv $(RTL_INC) $(GEN)/gpucosim_pkg.sv $(VL_CNT)/.flags | check-tools
	@mkdir -p $(VL_CNT)
	$(VERILATOR) $(VL_COMMON) --top-module counter_top --prefix Vgpu_top -Mdir $(VL_CNT) $(GEN)/gpucosim_pkg.sv \
	  cosim/speed/counter_top.sv >$(VL_CNT)/build.log 2>&1 || { cat $(VL_CNT)/build.log; exit 1; }
	$(MAKE) -s -C $(VL_CNT) -f $(abspath cosim/verilated_lib.mk) -j $(JOBS) $(VL_MAKEFLAGS) libverilated.a \
	  >>$(VL_CNT)/build.log 2>&1 || { cat $(VL_CNT)/build.log; exit 1; }
	@touch $@
$(BUILD)/counter/obj/cosim/cosim.cpp.o: cosim/cosim.cpp $(GEN)/gpucosim_spec.h $(VL_CNT)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(subst -I$(VL) ,-I$(VL_CNT) ,$(CXXFLAGS)) -c $< -o $@
$(SPEED_CNT): $(BUILD)/rel/obj/cosim/speed/cosim_speed.c.o $(BUILD)/counter/obj/cosim/cosim.cpp.o $(VL_CNT)/.stamp
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $< $(BUILD)/counter/obj/cosim/cosim.cpp.o $(VL_CNT)/Vgpu_top__ALL.a $(VL_CNT)/libverilated.a $(LDLIBS)
-include $(wildcard $(BUILD)/counter/obj/cosim/*.d)

bench: $(BUILD)/bin/gpucosim $(RTL_TBS) $(GPUCOSIM32) $(SPEED_CNT)
	$(PY) scripts/bench.py --bin $(BUILD)/bin/gpucosim --bin-lanes32 $(GPUCOSIM32) --counter $(SPEED_CNT) \
	  --out $(BUILD)/bench/results.json

waves:
	@f=$$(ls -t $(BUILD)/waves/*.fst 2>/dev/null | head -1); \
	if [ -z "$$f" ]; then echo "no waveform yet: run 'make run WAVES=1' first" >&2; exit 1; fi; \
	gtkwave "$$f" cosim/gpucosim.gtkw

lint: check-tools $(GEN_FILES)
	$(PY) scripts/gen_spec.py --spec $(SPEC) --check
	$(VERILATOR) --lint-only -Wall -I$(GEN) -Irtl $(GEN)/gpucosim_pkg.sv rtl/lint.vlt $(RTL) --top-module gpu_top
	$(VERILATOR) --lint-only -Wall -I$(GEN) -Irtl $(GEN)/gpucosim_pkg.sv rtl/lint.vlt cosim/speed/counter_top.sv \
	  --top-module counter_top
	$(CC) -std=c11 $(WARN) -fsyntax-only $(INCS) $(DRV_CORE) hostdrv/tools/gpucosim.c cosim/speed/cosim_speed.c \
	  $(wildcard tests/unit/*.c tests/cosim/*.c tests/array/*.c)
	$(PY) -m py_compile scripts/*.py tests/tools/*.py
	$(PY) scripts/check_layers.py --gen $(GEN)

clean:
	rm -rf $(BUILD)


-include $(shell find $(BUILD)/rel $(BUILD)/san -name '*.d' 2>/dev/null)
