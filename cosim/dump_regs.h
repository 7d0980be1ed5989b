// dump_regs.h: the register part of the stuck-state dump, shared by the rtl harness (cosim.cpp)
// and the sc backend (cosim/sc/sc_backend.cpp) so the two dumps cannot drift apart.
#ifndef GPUCOSIM_DUMP_REGS_H
#define GPUCOSIM_DUMP_REGS_H

#include <cstdint>
#include <cstdio>

#include "gpucosim_spec.h"

// rd(offset) -> uint32_t reads one BAR0 register (0xFFFFFFFF when the read failed).
template <class Rd>
void gc_dump_regs(std::FILE *out, Rd rd, int irq_line) {
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) {
        uint32_t pb = rd(GC_REG_RUNLIST_DBG(rl));
        std::fprintf(out, "runlist %u PBDMA: state %s, channel %u, %u pushbuffer dwords left, %u switches\n", rl,
                     gc_pbdma_state_name(GC_RUNLIST_DBG_STATE_GET(pb)), GC_RUNLIST_DBG_CHANNEL_GET(pb),
                     GC_RUNLIST_DBG_PB_LEFT_GET(pb), rd(GC_REG_RUNLIST_SWITCHES(rl)));
    }
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        uint32_t ce = rd(GC_REG_ENGINE_DBG(e));
        std::fprintf(out, "CE%u: state %s, channel %u, %u read bursts in flight, %u bytes moved\n", e,
                     gc_ce_state_name(GC_ENGINE_DBG_STATE_GET(ce)), GC_ENGINE_DBG_CHANNEL_GET(ce),
                     GC_ENGINE_DBG_RD_OUT_GET(ce), rd(GC_REG_ENGINE_BYTES(e)));
    }
    uint32_t cp = rd(GC_REG_COMPUTE_DBG);
    std::fprintf(out, "compute: %u task entries (%u pending, %u fetching), %u of %u slots busy%s, %u warps active, "
                      "task 0x%x; last fault %s\n",
                 GC_COMPUTE_DBG_ENTRIES_GET(cp), GC_COMPUTE_DBG_PENDING_GET(cp), GC_COMPUTE_DBG_FETCHING_GET(cp),
                 GC_COMPUTE_DBG_SLOTS_BUSY_GET(cp), GC_COMPUTE_TMU_CONFIG_SLOTS_GET(rd(GC_REG_COMPUTE_TMU_CONFIG)),
                 GC_COMPUTE_DBG_EVICTING_GET(cp) ? " (evicting)" : "", GC_COMPUTE_DBG_WARPS_ACTIVE_GET(cp),
                 rd(GC_REG_COMPUTE_TASK),
                 gc_simt_fault_name(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(rd(GC_REG_COMPUTE_FAULT_CAUSE))));
    // TMU: counters, the first failed device LAUNCH (when there was one), the task log
    uint32_t lf = rd(GC_REG_COMPUTE_LAUNCH_FAIL), lc = rd(GC_REG_COMPUTE_LOG_CTRL);
    uint32_t nfail = rd(GC_REG_COMPUTE_LAUNCH_FAILS);
    char first[96] = "";
    if (nfail)
        std::snprintf(first, sizeof first, " (last recorded: %s, depth %u, level %u, task 0x%x)",
                      gc_launch_status_name(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf)), GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf),
                      GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf), rd(GC_REG_COMPUTE_LAUNCH_FAIL_TASK));
    std::fprintf(out, "TMU: %u tasks done, %u evictions%s, %u device launches, %u failed%s; log %s, %u records of 2^%u\n",
                 rd(GC_REG_COMPUTE_TASKS), rd(GC_REG_COMPUTE_EVICTIONS),
                 GC_COMPUTE_TMU_CTRL_NO_EVICT_GET(rd(GC_REG_COMPUTE_TMU_CTRL)) ? " (NO_EVICT)" : "",
                 rd(GC_REG_COMPUTE_DEV_LAUNCHES), nfail, first, GC_COMPUTE_LOG_CTRL_ENABLE_GET(lc) ? "on" : "off",
                 rd(GC_REG_COMPUTE_LOG_PUT), GC_COMPUTE_LOG_CTRL_SIZE_LOG2_GET(lc));
    std::fprintf(out, "IRQ: status 0x%x enable 0x%x line %d; faulted channels 0x%x\n", rd(GC_REG_GLOBAL_INTR_STATUS),
                 rd(GC_REG_GLOBAL_INTR_ENABLE), irq_line, rd(GC_REG_GLOBAL_FAULT_CHANNELS));
    for (uint32_t ch = 0; ch < GC_NUM_CHANNELS; ch++) {
        uint32_t ctrl = rd(GC_REG_CHANNEL_CTRL(ch));
        uint32_t err = rd(GC_REG_CHANNEL_ERROR(ch));
        uint32_t get = rd(GC_REG_CHANNEL_GP_GET(ch)), put = rd(GC_REG_CHANNEL_GP_PUT(ch));
        if (!GC_CHANNEL_CTRL_ENABLE_GET(ctrl) && !err && get == put) continue;
        uint32_t st = rd(GC_REG_CHANNEL_STATUS(ch));
        std::fprintf(out, "channel %2u: %s runlist %u GP_GET %u GP_PUT %u, %u methods, error %s%s%s%s%s\n", ch,
                     GC_CHANNEL_CTRL_ENABLE_GET(ctrl) ? "enabled " : "disabled", rd(GC_REG_CHANNEL_RUNLIST(ch)), get,
                     put, rd(GC_REG_CHANNEL_METHODS(ch)), gc_error_cause_name(GC_CHANNEL_ERROR_CAUSE_GET(err)),
                     GC_CHANNEL_STATUS_PENDING_GET(st) ? ", work pending" : "",
                     GC_CHANNEL_STATUS_RESIDENT_GET(st) ? ", resident" : "",
                     GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st) ? ", engine work in flight" : "",
                     GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(st) ? ", blocked on an acquire" : "");
    }
}

#endif
