// sc_memory.h: the sc backend's device memory, a TLM-2.0 target (loosely timed).
//
// The same two windows as cosim/axi_mem.h, from the generated spec: sysmem at GC_SYSMEM_BASE and
// vidmem at GC_VIDMEM_BASE, each with its own latency and bytes per cycle; anything else answers
// TLM_ADDRESS_ERROR_RESPONSE (the bridge turns that into DECERR) after one cycle.
//
// Timing, in the annotated delay of b_transport: each window has a read port and a write port,
// each a pipeline that takes bytes_per_cycle bytes a cycle.  A transaction of n bytes that
// arrives at T (sc_time_stamp() + the delay passed in) starts when its port is free,
// start = max(T, port_free), keeps the port busy for n / bytes_per_cycle cycles, and is done
// (read data available, write acknowledged) at start + latency; the delay returned is
// done - sc_time_stamp().  The AXI bridge sends one transaction per 8-byte beat: all beats of a
// read burst at the AR, each write beat at its W handshake, and asks the write port (ScPortExt,
// TLM_IGNORE_COMMAND) before it raises WREADY.  That is exactly cosim's AxiMem timing: read beats
// `latency` after the AR or after the window's previous beats, then one per 8 / bytes_per_cycle
// cycles; write beats taken one per 8 / bytes_per_cycle cycles, B `latency` after the last.
// b_transport never calls wait(): callers may be SC_METHODs.
//
// Data moves when b_transport is called (the usual LT convention: the access is atomic at the
// call, its time is in the delay).  transport_dbg is the host's backdoor (no time), on either
// socket.  The storage is two anonymous mappings, zeroed again by reset() (madvise), so an open
// costs no 128 MiB memset and untouched pages use no memory.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

// ScPortExt: an ignorable extension (TLM-2.0 base protocol: any component may ignore it) for a
// target whose ports have a bandwidth.  On a READ or WRITE the target sets `accept`: when the port
// starts taking the transaction's bytes, as a delay from sc_time_stamp() (the annotated delay
// still says when the transaction is done).  With TLM_IGNORE_COMMAND nothing is read, written or
// reserved: the target only answers when its port (`write` says which) would start taking a
// transaction of that address and length arriving at sc_time_stamp() + the delay passed in.  The
// AXI bridge asks that every cycle a write burst is open, to raise WREADY only when the write
// port can take the next beat, as a real slave with a busy write port would.
struct ScPortExt : tlm::tlm_extension<ScPortExt> {
    bool write = false;
    sc_core::sc_time accept;
    tlm::tlm_extension_base *clone() const override { return new ScPortExt(*this); }
    void copy_from(const tlm::tlm_extension_base &e) override {
        const auto &o = static_cast<const ScPortExt &>(e);
        write = o.write;
        accept = o.accept;
    }
};

struct ScMemTiming {
    uint32_t sys_latency = 100, sys_bytes_per_cycle = 4;  // a PCIe round trip
    uint32_t vid_latency = 40, vid_bytes_per_cycle = 8;   // DRAM
};

class ScMemory : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<ScMemory> bus;   // from the AXI4 bridge: b_transport (+ debug)
    tlm_utils::simple_target_socket<ScMemory> host;  // the host's backdoor: transport_dbg only

    ScMemory(sc_core::sc_module_name name, sc_core::sc_time cycle);
    ~ScMemory() override;

    // Zero both windows, set their timing, forget port occupancy.  Call with the simulation paused
    // or from a process, never while a transaction is in flight.
    void reset(const ScMemTiming &t);

  private:
    struct Window {
        const char *name;
        uint64_t base, size;
        uint8_t *bytes;
        uint64_t latency_ps, ps_per_byte_x8;  // ps_per_byte_x8 = 8 * cycle / bytes_per_cycle
        sc_core::sc_time rd_free, wr_free;     // when the read / write port takes the next bytes
    };
    Window win_[2];
    sc_core::sc_time cycle_;

    Window *window(uint64_t addr, uint64_t n);
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned int transport_dbg(tlm::tlm_generic_payload &gp);
    void host_b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
};
