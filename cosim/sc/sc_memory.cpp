// sc_memory.cpp: the sc backend's device memory (see sc_memory.h).
#include "sc_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "gpucosim_spec.h"

using sc_core::sc_time;

ScMemory::ScMemory(sc_core::sc_module_name name, sc_time cycle)
    : sc_module(name), bus("bus"), host("host"), cycle_(cycle) {
    win_[0] = Window{"sysmem", GC_SYSMEM_BASE, GC_SYSMEM_SIZE, nullptr, 0, 0, sc_core::SC_ZERO_TIME,
                     sc_core::SC_ZERO_TIME};
    win_[1] = Window{"vidmem", GC_VIDMEM_BASE, GC_VIDMEM_SIZE, nullptr, 0, 0, sc_core::SC_ZERO_TIME,
                     sc_core::SC_ZERO_TIME};
    for (Window &w : win_) {
        void *p = mmap(nullptr, w.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error(std::string("sc memory: cannot map ") + w.name);
        w.bytes = static_cast<uint8_t *>(p);
    }
    bus.register_b_transport(this, &ScMemory::b_transport);
    bus.register_transport_dbg(this, &ScMemory::transport_dbg);
    host.register_b_transport(this, &ScMemory::host_b_transport);
    host.register_transport_dbg(this, &ScMemory::transport_dbg);
    reset(ScMemTiming{});
}

ScMemory::~ScMemory() {
    for (Window &w : win_) munmap(w.bytes, w.size);
}

void ScMemory::reset(const ScMemTiming &t) {
    const uint64_t cyc = cycle_.value();
    const uint32_t lat[2] = {t.sys_latency, t.vid_latency};
    const uint32_t bpc[2] = {t.sys_bytes_per_cycle ? t.sys_bytes_per_cycle : 1,
                             t.vid_bytes_per_cycle ? t.vid_bytes_per_cycle : 1};
    for (int i = 0; i < 2; i++) {
        Window &w = win_[i];
        madvise(w.bytes, w.size, MADV_DONTNEED);  // private anonymous pages read back as zero
        w.latency_ps = cyc * lat[i];
        w.ps_per_byte_x8 = 8 * cyc / bpc[i];
        w.rd_free = w.wr_free = sc_core::SC_ZERO_TIME;
    }
}

ScMemory::Window *ScMemory::window(uint64_t addr, uint64_t n) {
    for (Window &w : win_)
        if (addr >= w.base && addr - w.base <= w.size && n <= w.size - (addr - w.base)) return &w;
    return nullptr;
}

void ScMemory::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay) {
    const uint64_t addr = gp.get_address();
    const unsigned n = gp.get_data_length();
    const sc_time now = sc_core::sc_time_stamp();
    ScPortExt *ext = gp.get_extension<ScPortExt>();
    Window *w = window(addr, n);
    if (!w) {
        if (ext) ext->accept = delay;
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        delay += cycle_;
        return;
    }
    if (gp.get_streaming_width() < n) {
        gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    const bool query = gp.get_command() == tlm::TLM_IGNORE_COMMAND;
    const bool write = query ? (ext && ext->write) : gp.is_write();
    sc_time &port = write ? w->wr_free : w->rd_free;
    const sc_time start = std::max(now + delay, port);
    if (ext) ext->accept = start - now;
    delay = start + sc_time::from_value(w->latency_ps) - now;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (query) return;
    port = start + sc_time::from_value(w->ps_per_byte_x8 * n / 8);
    uint8_t *p = w->bytes + (addr - w->base);
    uint8_t *d = gp.get_data_ptr();
    if (!write) {
        std::memcpy(d, p, n);
        return;
    }
    const uint8_t *be = gp.get_byte_enable_ptr();
    const unsigned bel = gp.get_byte_enable_length();
    if (!be) {
        std::memcpy(p, d, n);
    } else {
        for (unsigned i = 0; i < n; i++)
            if (be[i % bel] == TLM_BYTE_ENABLED) p[i] = d[i];
    }
}

unsigned int ScMemory::transport_dbg(tlm::tlm_generic_payload &gp) {
    const uint64_t addr = gp.get_address();
    const unsigned n = gp.get_data_length();
    Window *w = window(addr, n);
    if (!w) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return 0;
    }
    uint8_t *p = w->bytes + (addr - w->base);
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), p, n);
    else if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), n);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return n;
}

// The host socket is a backdoor: a timed access there is refused rather than silently untimed.
void ScMemory::host_b_transport(tlm::tlm_generic_payload &gp, sc_time &) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}
