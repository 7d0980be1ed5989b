/* Device queries (gpucosim/props.h): the properties read from the configuration registers, the
 * performance-counter snapshot, and the host's no-FPU path decided by COMPUTE.CAPS.FPU (the ref
 * model with inject "no-fpu", as gpu_top built with FPU = 0).  Runs on rtl, ref and sc (the
 * backend from $GPUCOSIM_BACKEND, as the driver suite does). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/compute.h"
#include "gc_kernels.h"
#include "rt_test.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

static gcrt_t *rt_open(const char *backend, const char *inject) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    if (backend) cfg.device.backend = backend;
    if (inject) cfg.device.inject = inject;
    gcrt_t *rt = NULL;
    char why[400] = "";
    if (gcrt_open_ex(&cfg, &rt, why, sizeof why) != GCRT_SUCCESS) {
        TCASE_FAIL_("gcrt_open_ex (%s): %s", cfg.device.backend, why);
        return NULL;
    }
    return rt;
}

/* Every property is what the build's spec defaults say (gpu_top's parameters are those), read
 * through the runtime and the driver alike; NULL arguments are refused. */
static void t_props(void) {
    gcrt_t *rt = rt_open(NULL, NULL);
    REQUIRE(rt);
    gc_device_props_t p, q;
    RT_OK(rt, gcrt_get_device_properties(rt, &p));
    CHECK_EQ(gc_device_get_props(gcrt_device(rt), &q), GC_OK);
    CHECK(!memcmp(&p, &q, sizeof p));
    gc_props_print(stderr, &p);
    const struct {
        const char *name;
        uint64_t got, want;
    } want[] = {
        {"id", p.id, GC_ID},
        {"version", p.version, GC_VERSION},
        {"channels", p.channels, GC_NUM_CHANNELS},
        {"runlists", p.runlists, GC_NUM_RUNLISTS},
        {"copy_engines", p.copy_engines, GC_NUM_CE},
        {"bus_bytes", p.bus_bytes, GC_AXI_DATA_W / 8},
        {"compute", p.compute, 1},
        {"sms", p.sms, GC_SIMT_NUM_SM},
        {"warps", p.warps, GC_SIMT_WARPS},
        {"lanes", p.lanes, GC_SIMT_LANES},
        {"smem_bytes", p.smem_bytes, GC_SIMT_SMEM_BYTES},
        {"lmem_bytes", p.lmem_bytes, GC_SIMT_LMEM_BYTES},
        {"fpu", p.fpu, 1},
        {"tmu_slots", p.tmu_slots, GC_TMU_SLOTS},
        {"tmu_entries", p.tmu_entries, GC_TMU_ENTRIES},
        {"prio_levels", p.prio_levels, GC_TMU_PRIO_LEVELS},
        {"vidmem_base", p.vidmem_base, GC_VIDMEM_BASE},
        {"vidmem_size", p.vidmem_size, GC_VIDMEM_SIZE},
        {"sysmem_size", p.sysmem_size, GC_SYSMEM_SIZE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (want[i].got != want[i].want)
            TCASE_FAIL_("property %s: %" PRIu64 ", want %" PRIu64, want[i].name, want[i].got, want[i].want);
    CHECK(!strcmp(p.windows[0].name, "SYSMEM") && p.windows[0].guard == GC_SIMT_WIN_SYSMEM_GUARD);
    CHECK(!strcmp(p.windows[3].name, "LOCAL") && p.windows[3].base == GC_SIMT_WIN_LOCAL_BASE);
    /* the register itself */
    uint32_t caps = 0;
    CHECK_EQ(gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CAPS, &caps), GC_OK);
    CHECK_EQ(caps, GC_COMPUTE_CAPS_FPU(1) | GC_COMPUTE_CAPS_LMEM_BYTES(GC_SIMT_LMEM_BYTES));
    /* read-only: a write is ignored */
    CHECK_EQ(gc_mmio_write(gcrt_device(rt), GC_REG_COMPUTE_CAPS, 0), GC_OK);
    CHECK_EQ(gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CAPS, &caps), GC_OK);
    CHECK_EQ(GC_COMPUTE_CAPS_FPU_GET(caps), 1u);
    CHECK_EQ(gcrt_get_device_properties(rt, NULL), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(gcrt_last_message(rt), "NULL") != NULL);
    CHECK_EQ(gcrt_get_device_properties(NULL, &p), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_read_counters(rt, NULL), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gc_device_get_props(NULL, &p), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_counters_read(gcrt_device(rt), NULL), GC_ERR_INVALID_ARG);
out:
    gcrt_close(rt);
}

/* The snapshot API over the MMIO counters: around a 4 KiB H2D copy and a vecadd of 3 CTAs, the
 * differences are what the hardware counted for exactly that work. */
static void t_counters(void) {
    enum { N = 1024, BYTES = N * 4, CTAS = 3, THREADS = 13 };
    gcrt_t *rt = rt_open(NULL, NULL);
    REQUIRE(rt);
    gc_elf_t *img = NULL;
    gc_device_props_t p;
    gc_counters_t c0, c1, c2, d;
    uint64_t ha, da, db, dc;
    RT_OK(rt, gcrt_get_device_properties(rt, &p));
    RT_OK(rt, gcrt_load_image(rt, GC_FIRMWARE_DIR "/kernels.elf", &img));
    RT_OK(rt, gcrt_malloc_host(rt, &ha, BYTES));
    RT_OK(rt, gcrt_malloc(rt, &da, BYTES));
    RT_OK(rt, gcrt_malloc(rt, &db, BYTES));
    RT_OK(rt, gcrt_malloc(rt, &dc, BYTES));
    RT_OK(rt, gcrt_device_synchronize(rt));
    RT_OK(rt, gcrt_read_counters(rt, &c0));
    CHECK(c0.cycle > 0 && c0.cycle <= gc_device_cycles(gcrt_device(rt)));
    CHECK_EQ(c0.channels, GC_NUM_CHANNELS);
    RT_OK(rt, gcrt_memcpy_async(rt, da, ha, BYTES, GCRT_MEMCPY_HOST_TO_DEVICE, NULL, "h2d"));
    RT_OK(rt, gcrt_device_synchronize(rt));
    RT_OK(rt, gcrt_read_counters(rt, &c1));
    gc_counters_diff(&c0, &c1, &d);
    CHECK(d.cycle > 0);
    uint64_t bytes = 0, methods = 0;
    for (uint32_t e = 0; e < GC_NUM_CE; e++) bytes += d.ce_bytes[e];
    for (uint32_t ch = 0; ch < GC_NUM_CHANNELS; ch++) methods += d.channel[ch].methods;
    CHECK_EQ(bytes, BYTES);                  /* ENGINE.BYTES: the copy's bytes, nothing else */
    CHECK(methods > 0);
    CHECK_EQ(d.tasks, 0u);
    CHECK_EQ(d.warp_instrs, 0u);
    gc_vecadd_params_t vp = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(da), gcrt_kernel_ptr(dc), CTAS * THREADS};
    uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {THREADS, 1, 1};
    RT_OK(rt, gcrt_launch(rt, NULL, img, "vecadd", grid, block, &vp, sizeof vp, 0));
    RT_OK(rt, gcrt_device_synchronize(rt));
    RT_OK(rt, gcrt_read_counters(rt, &c2));
    gc_counters_diff(&c1, &c2, &d);
    gc_counters_print(stderr, &d, &p);
    CHECK_EQ(d.tasks, 1u);
    CHECK_EQ(d.ctas, CTAS);
    CHECK(d.warp_instrs > 0);
    /* a 13-thread CTA is 2 warps on 8 lanes: at most LANES active lanes per warp instruction */
    CHECK(d.thread_instrs >= d.warp_instrs && d.thread_instrs <= (uint64_t)d.warp_instrs * p.lanes);
    CHECK(d.active_cycles > 0 && d.active_cycles <= d.cycle);
    CHECK(d.lsu_beats > 0);
    CHECK_EQ(d.evictions, 0u);
    CHECK_EQ(d.launch_fails, 0u);
    for (uint32_t e = 0; e < GC_NUM_CE; e++) CHECK_EQ(d.ce_bytes[e], 0u);
    /* the snapshot wraps like the counters: b - a modulo 2^32 */
    gc_counters_t w0 = c0, w1 = c0;
    w0.tasks = 0xFFFFFFFEu;
    w1.tasks = 3u;
    gc_counters_diff(&w0, &w1, &d);
    CHECK_EQ(d.tasks, 5u);
    (void)db;
out:
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
}

/* A device without the FPU (ref with inject "no-fpu": COMPUTE.CAPS.FPU = 0, F instructions
 * illegal): the host reads the bit and skips the float kernels (reported SKIPPED, never passed)
 * while the integer ones run; a float kernel launched anyway faults ILLEGAL_INSTRUCTION at its
 * first F instruction: FAULT_PC is that instruction, FAULT_ADDR its word. */
static void t_no_fpu(void) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.device.backend = "ref";
    cfg.device.inject = "no-fpu";
    char err[700] = "";
    bool fpu = true;
    CHECK_EQ(gcsc_fpu_present(&cfg, &fpu, err, sizeof err), GCRT_SUCCESS);
    CHECK(!fpu);
    static gcsc_result_t r;
    CHECK_EQ(gcsc_float_kernels(&cfg, GC_FIRMWARE_DIR "/kernels.elf", stderr, &r, err, sizeof err), GCRT_SUCCESS);
    CHECK(r.float_skipped && !r.fpu && r.checks == 0);
    CHECK_EQ(gcsc_kernels(&cfg, GC_FIRMWARE_DIR "/kernels.elf", 1, stderr, NULL, &r, err, sizeof err), GCRT_SUCCESS);
    CHECK(r.float_skipped && !r.fpu);
    CHECK_EQ(r.kernels, 4u);
    CHECK_EQ(r.bad_checks, 0u);
    gcrt_t *rt = rt_open("ref", "no-fpu");
    REQUIRE(rt);
    gc_elf_t *img = NULL;
    gc_device_props_t p;
    uint64_t dx;
    RT_OK(rt, gcrt_get_device_properties(rt, &p));
    CHECK(!p.fpu);
    CHECK_EQ(p.lmem_bytes, GC_SIMT_LMEM_BYTES);
    RT_OK(rt, gcrt_load_image(rt, GC_FIRMWARE_DIR "/kernels.elf", &img));
    RT_OK(rt, gcrt_malloc(rt, &dx, 64));
    gc_fsaxpy_params_t fp = {gcrt_kernel_ptr(dx), gcrt_kernel_ptr(dx), 16, 0x3F800000u};
    uint32_t one[3] = {1, 1, 1}, block[3] = {16, 1, 1};
    gcrt_error_t e = gcrt_launch(rt, NULL, img, "fsaxpy", one, block, &fp, sizeof fp, 0);
    if (e == GCRT_SUCCESS) e = gcrt_device_synchronize(rt);
    CHECK_EQ(e, GCRT_ERROR_CHANNEL_FAULT);
    gc_compute_fault_t f;
    CHECK_EQ(gc_compute_fault_read(gcrt_device(rt), &f), GC_OK);
    CHECK_EQ(f.cause, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION);
    uint32_t entry = 0, word = 0, opc = f.addr & 0x7Fu;
    CHECK_EQ(gc_elf_symbol(img, "fsaxpy", &entry), GC_OK);
    CHECK(f.pc >= entry && f.pc < entry + 4096u);
    CHECK(opc == GC_FP_OPC_LOAD_FP || opc == GC_FP_OPC_STORE_FP || opc == GC_FP_OPC_OP_FP ||
          opc == GC_FP_OPC_FMADD || opc == GC_FP_OPC_FMSUB || opc == GC_FP_OPC_FNMSUB || opc == GC_FP_OPC_FNMADD ||
          (opc == 0x73u && ((f.addr >> 20) == GC_FP_CSR_FFLAGS || (f.addr >> 20) == GC_FP_CSR_FRM ||
                            (f.addr >> 20) == GC_FP_CSR_FCSR)));
    uint64_t dev_pc = 0;
    CHECK(gc_simt_to_device(f.pc, &dev_pc));
    CHECK_EQ(gc_mem_read(gcrt_device(rt), dev_pc, &word, 4), GC_OK);
    CHECK_EQ(word, f.addr); /* FAULT_ADDR is the word at FAULT_PC */
    char line[300];
    gc_compute_fault_format(&f, line, sizeof line);
    fprintf(stderr, "no-fpu: %s\n", line);
    gcrt_get_last_error(rt);
out:
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
}

static const tcase_t cases[] = {
    {"props", t_props},
    {"props_counters", t_counters},
    {"props_no_fpu", t_no_fpu},
};
TCASE_MAIN(cases)
