# mk/tools.mk (included by the Makefile): the tools around the model (issue 18):
# make coverage, make plots, make sweep, make cocotb.

# ---------------------------------------------------------------- the AXI checker's own test
# rtl/gc_axi_check.sv Verilated alone (IW = 2, MAX_LEN = 16) under tests/rtl/axi_check_tb.cpp:
# legal traffic passes, each broken rule stops the run naming its assertion.  Defined before the
# coverage rules: coverage-bins' prerequisites ($(COV_PROGS)) are expanded where that rule is read.
$(BUILD)/rtl_axi_check/test_axi_check: rtl/gc_axi_check.sv $(RTL_INC) tests/rtl/axi_check_tb.cpp tests/common/tcase.h \
    rtl/lint.vlt | check-tools
	@mkdir -p $(BUILD)
	$(VERILATOR) --cc --exe --build -j $(JOBS) -O1 -Wno-fatal -Irtl -GIW=2 -GMAX_LEN=16 --top-module gc_axi_check \
	  -Mdir $(BUILD)/rtl_axi_check -o test_axi_check rtl/lint.vlt rtl/gc_axi_check.sv $(CURDIR)/tests/rtl/axi_check_tb.cpp \
	  >$(BUILD)/rtl_axi_check.log 2>&1 || { cat $(BUILD)/rtl_axi_check.log; exit 1; }
TEST_BINS += $(BUILD)/rtl_axi_check/test_axi_check
all: $(BUILD)/rtl_axi_check/test_axi_check
# ---------------------------------------------------------------- coverage
# `make coverage`: the Verilated models with Verilator's line + toggle coverage and the driver
# with gcov, all in $(COV_BUILD) (a second make with BUILD=$(COV_BUILD) COVERAGE=1); the block
# benches and the whole end-to-end suite (rtl, ref and sc backends, test_sc, the CLI and its
# scenarios through tests/tools/test_cli.py and test_scenarios.py) run on them, each model writing its coverage to
# $(COV_BUILD)/dat (cosim/gc_cov.h); scripts/coverage.py merges them with verilator_coverage,
# drops the toggle points of rtl/coverage_waivers.txt, writes lcov tracefiles, the HTML report
# ($(COV_BUILD)/html/index.html, with Debian's genhtml) and the figures rtl_line_coverage,
# rtl_toggle_coverage, driver_line_coverage into $(BUILD)/bench/results.json (merged: the bench's
# figures stay).  Every run starts from clean gcov objects ($(COV_BUILD)/rel and /san are removed
# and rebuilt: a C compile each, so no .gcno / .gcda of an earlier run or of a moved source is
# left); the Verilated models (no gcov in them) are rebuilt only when their sources change.
# The sc backend runs the driver (backend_sc.c and the rest, gcov) against the sc plugin of
# $(BUILD), which has no RTL coverage: its RTL is the same as the rtl backend's.  Not in the run:
# the LANES=32 / 2-SM SIMT benches (the same RTL as simt8 with other parameters: their toggle
# points would be other signal widths of the same modules) and the mutation bench (planted
# faults, not the design).
COV_BUILD ?= build/coverage
ifeq ($(COVERAGE),1)
CFLAGS   += --coverage
CXXFLAGS += --coverage -DVM_COVERAGE=1
LDLIBS   += --coverage
endif
COV_PROGS = $(filter-out %/test_simt32 %/test_simt2sm %/test_simtmut,$(TEST_BINS)) $(RTL_TBS)
COV_E2E   = $(foreach b,$(OTHER_BACKENDS),$(foreach t,$(DRIVER_SUITE),$(b)@$(COV_BUILD)/tests/$(t))) \
            $(foreach t,$(REF_SUITE),ref@$(COV_BUILD)/tests/$(t)) $(foreach t,$(SC_ONCE),sc@$(COV_BUILD)/tests/$(t))
# COV_ONLY='test_copy Vce_tb_top ...': only these programs (a quicker, partial report); TESTS=x
# filters the cases as in make test.  A partial run says so in its output and summary.txt, and its
# figures go into results.json with "scope": "partial: COV_ONLY=... TESTS=..." (a full run: "full").
ifneq ($(COV_ONLY),)
COV_PROGS := $(filter $(addprefix %/,$(COV_ONLY)),$(COV_PROGS))
endif

.PHONY: coverage coverage-bins
coverage-bins: $(COV_PROGS) $(BUILD)/bin/gpucosim
coverage: check-tools $(SC_PLUGIN)
	@command -v genhtml >/dev/null || { echo "error: genhtml not found (Debian lcov): run 'make setup'" >&2; exit 1; }
	rm -rf $(COV_BUILD)/rel $(COV_BUILD)/san $(COV_BUILD)/dat
	$(MAKE) --no-print-directory BUILD=$(COV_BUILD) COVERAGE=1 coverage-bins
	mkdir -p $(COV_BUILD)/dat
	GPUCOSIM_COVERAGE_DIR=$(abspath $(COV_BUILD)/dat) GPUCOSIM_SC_PLUGIN=$(abspath $(SC_PLUGIN)) BUILD=$(COV_BUILD) \
	  $(PY) scripts/run_tests.py --jobs $(JOBS) \
	  --timeout 3600 --junit $(COV_BUILD)/junit.xml $(if $(TESTS),--filter '$(TESTS)') \
	  $(patsubst $(BUILD)/%,$(COV_BUILD)/%,$(COV_PROGS)) $(if $(COV_ONLY),,tests/tools/test_cli.py tests/tools/test_scenarios.py $(COV_E2E)); \
	  st=$$?; $(PY) scripts/coverage.py --build $(COV_BUILD) --waivers rtl/coverage_waivers.txt \
	  --results $(BUILD)/bench/results.json $(if $(COV_ONLY)$(TESTS),--partial "COV_ONLY='$(COV_ONLY)' TESTS='$(TESTS)'") \
	  && exit $$st

# ---------------------------------------------------------------- plots and sweeps
# `make plots`: scripts/plots.py into $(BUILD)/plots (runs `make bench` first when there are no
# bench figures yet).  `make sweep SWEEP_ARGS='...'`: scripts/sweep.py (README: Sweeps).
SWEEP_ARGS ?= --scenario prio-latency --param timeslice=500,1000,3000 --param priorities=on,off --seeds 1-2
.PHONY: plots sweep
plots: $(BUILD)/bin/gpucosim $(if $(wildcard $(BUILD)/bench/results.json),,bench)
	$(PY) scripts/plots.py --bin $(BUILD)/bin/gpucosim --results $(BUILD)/bench/results.json --outdir $(BUILD)/plots
sweep: $(BUILD)/bin/gpucosim
	$(PY) scripts/sweep.py --bin $(BUILD)/bin/gpucosim --out $(BUILD)/sweep/sweep.csv --plot $(BUILD)/sweep/sweep.png \
	  $(SWEEP_ARGS)

# ---------------------------------------------------------------- cocotb peer check
# gpu_top (through tests/cocotb/gpu_top_cocotb.sv: gpu_top's own pins, from rtl/gc_axi_pins.svh) Verilated
# with cocotb's VPI harness into $(BUILD)/cocotb/gpu_top_cocotb (part of `make all`).
# tests/tools/test_cocotb.py runs each test of tests/cocotb/peer_tests.py in its own simulator
# process: cases cocotb_* of `make test`; `make cocotb` runs only them.
COCOTB_DIR  := $(BUILD)/cocotb
COCOTB_SIM  := $(COCOTB_DIR)/gpu_top_cocotb
COCOTB_LIBS  = $(shell $(PY) -c 'import cocotb.config as c; print(c.libs_dir)' 2>/dev/null)
COCOTB_SHARE = $(shell $(PY) -c 'import cocotb, os; print(os.path.dirname(cocotb.__file__))' 2>/dev/null)/share
$(COCOTB_SIM): $(RTL) $(RTL_INC) tests/cocotb/gpu_top_cocotb.sv tests/cocotb/cocotb.vlt $(GEN)/gpucosim_pkg.sv rtl/lint.vlt | check-tools
	@$(PY) -c 'import cocotb, cocotbext.axi' 2>/dev/null || \
	  { echo "error: cocotb / cocotbext-axi missing: run 'make setup'" >&2; exit 1; }
	@mkdir -p $(COCOTB_DIR)
	$(VERILATOR) --cc --exe --build -j $(JOBS) -O2 -Wno-fatal --x-assign fast --x-initial fast -DCOCOTB_SIM=1 \
	  --top-module gpu_top_cocotb --vpi --prefix Vtop -o gpu_top_cocotb -Mdir $(COCOTB_DIR) -I$(GEN) -Irtl \
	  -LDFLAGS "-Wl,-rpath,$(COCOTB_LIBS) -L$(COCOTB_LIBS) -lcocotbvpi_verilator" \
	  $(COCOTB_SHARE)/lib/verilator/verilator.cpp $(GEN)/gpucosim_pkg.sv rtl/lint.vlt tests/cocotb/cocotb.vlt $(RTL) \
	  tests/cocotb/gpu_top_cocotb.sv >$(COCOTB_DIR)/build.log 2>&1 || { cat $(COCOTB_DIR)/build.log; exit 1; }
all: $(COCOTB_SIM)
.PHONY: cocotb
cocotb: $(COCOTB_SIM) $(FW_ELFS)
	BUILD=$(BUILD) $(PY) scripts/run_tests.py --jobs $(JOBS) --timeout 3600 tests/tools/test_cocotb.py

