"""gpu_top against a second implementation of its buses: cocotbext-axi's AXI4-Lite master drives
BAR0 and its AXI4 slave (over a sparse memory of the spec's SYSMEM and VIDMEM windows) serves the
memory port, with random backpressure on every channel of both (each valid and each ready of the
peer is withheld PAUSE_PCT % of the cycles, a seeded generator per channel).  cocotbext-axi checks
the protocol on its side (WLAST on the last beat, bursts inside 4 KiB, AxSIZE within the bus:
assertions that fail the test); the RTL's own checkers (rtl/gc_axi_check.sv,
rtl/gc_axil_check.sv) are inside gpu_top.  Every register write must answer OKAY.

Tests (each run in its own simulator process by tests/tools/test_cocotb.py):
  copies      copies of several sizes and alignments on both copy engines, sysmem <-> vidmem,
              each releasing a semaphore: destination bytes equal the source, the bytes around
              them are untouched, every semaphore holds its payload
  semaphores  a channel acquires a semaphore the host has not released: its copy and its
              release do not happen (checked for ACQ_HOLD cycles); the host writes the value, then
              both happen; a 32-bit IADD reduction adds its operand
  kernel      vecadd from build/firmware/kernels.elf (loaded at its link address, launched by a
              TMD through the compute class on runlist 0): c = a + b for every element, the TMD's
              completion semaphore holds its payload
Environment: GPUCOSIM_SEED (default 1) seeds the data and the backpressure; GPUCOSIM_STALL_PCT
(0, make test's default, means 30) is PAUSE_PCT; GC_KERNELS_ELF names the kernel image.
"""
import logging
import os
import random
import struct

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
import cocotb_bus.bus
from cocotbext.axi import (AddressSpace, AxiBus, AxiLiteBus, AxiLiteMaster, AxiResp, AxiSlave,
                           SparseMemoryRegion)
from elftools.elf.elffile import ELFFile

from gcspec import ROOT, Spec



# cocotbext-axi's bus prefixes -> the prefixes of gpu_top's pins (rtl/gc_axi_pins.svh), whose
# names end in the direction (_i, _o)
PIN_PREFIX = (("s_axil_", "s_"), ("m_axi_", "m_"))


def pin_names(attr):
    """The names a cocotbext-axi signal name may have on the wrapper: itself, and for s_axil_x /
    m_axi_x gpu_top's pin s_x_i / s_x_o / m_x_i / m_x_o."""
    yield attr
    for bus, pin in PIN_PREFIX:
        if attr.startswith(bus):
            yield f"{pin}{attr[len(bus):]}_i"
            yield f"{pin}{attr[len(bus):]}_o"


def _port_by_name(self, obj, attr):
    """cocotb-bus's Bus finds each signal through dir(obj), case-insensitively.  On Verilator 5.006
    with cocotb 1.8, dir(dut) makes cocotb discover the toplevel by iterating its VPI scope, and
    the handle it gets there for a port is the module's own copy of it
    (gpu_top_cocotb__DOT__s_arvalid_i), which the model overwrites from the real port at every
    evaluation: every value the AXI models write is lost (ARVALID never rises).  Looked up by
    name (vpi_handle_by_name), the same port is the real input.  So the bus signals are looked up
    by their exact names (pin_names: gpu_top's pins), and the test touches no signal before
    building the buses.  An optional signal gpu_top does not have (AWLOCK, AWCACHE, ...) is None."""
    for name in pin_names(attr):
        try:
            return getattr(obj, name)
        except AttributeError:
            pass
    return None


cocotb_bus.bus.Bus._caseInsensGetattr = _port_by_name

SEED = int(os.environ.get("GPUCOSIM_SEED", "1") or 1)
PAUSE_PCT = int(os.environ.get("GPUCOSIM_STALL_PCT", "0") or 0) or 30   # 0 (make test's default): 30
TIMEOUT = 300_000     # cycles any one wait may take (the whole test: TEST_MS of simulated time)
TEST_MS = 30          # 3 M cycles of 10 ns: a hung handshake fails the test instead of hanging it
ACQ_HOLD = 20_000     # cycles the blocked acquire is watched
RING_LOG2 = 6


def pauses(rng, pct):
    """A pause generator for one cocotbext-axi channel: True (hold valid / ready low) pct % of cycles."""
    while True:
        yield rng.randrange(100) < pct


class Device:
    def __init__(self, dut):
        self.dut, self.spec = dut, Spec()
        self.rng = random.Random(SEED)
        s = self.spec
        cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
        self.space = AddressSpace(2 ** s.params["AXI_ADDR_W"])
        for w in ("SYSMEM", "VIDMEM"):
            m = s.memory_map[w]
            self.space.register_region(SparseMemoryRegion(size=m["size"]), m["base"])
        self.sys_base = s.memory_map["SYSMEM"]["base"]
        self.vid_base = s.memory_map["VIDMEM"]["base"]
        # The models are not given the reset: they start idle, and the device is reset before they
        # are used.
        self.mem = AxiSlave(AxiBus.from_prefix(dut, "m_axi"), dut.clk_i, target=self.space)
        self.bar = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i)
        chans = [self.mem.write_if.aw_channel, self.mem.write_if.w_channel, self.mem.write_if.b_channel,
                 self.mem.read_if.ar_channel, self.mem.read_if.r_channel,
                 self.bar.write_if.aw_channel, self.bar.write_if.w_channel, self.bar.write_if.b_channel,
                 self.bar.read_if.ar_channel, self.bar.read_if.r_channel]
        for part in (self.mem.write_if, self.mem.read_if, self.bar.write_if, self.bar.read_if):
            part.log.setLevel(logging.WARNING)   # no line per burst (warnings and failures stay)
        for i, ch in enumerate(chans):
            ch.set_pause_generator(pauses(random.Random(SEED * 1000 + i), PAUSE_PCT))
        self.pb_next = self.sys_base + 0x200000
        self.put = {}

    async def reset(self):
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 10)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.dut.clk_i, 5)
        self.dut._log.info("reset done; reading GLOBAL.ID")
        ident = await self.rd(self.spec.reg("GLOBAL", "ID"))
        self.dut._log.info("GLOBAL.ID %#x", ident)
        assert ident == 0x47505543, f"GLOBAL.ID reads {ident:#x}"

    # ---- BAR0 and memory
    async def wr(self, off, val):
        r = await self.bar.write(off, struct.pack("<I", val))
        assert r.resp == AxiResp.OKAY, f"BAR0 write {off:#x} = {val:#x}: {r.resp!r}"

    async def rd(self, off):
        r = await self.bar.read(off, 4)
        assert r.resp == AxiResp.OKAY, f"BAR0 read {off:#x}: {r.resp!r}"
        return struct.unpack("<I", r.data)[0]

    async def mwrite(self, addr, data):
        await self.space.write(addr, bytes(data))

    async def mread(self, addr, n):
        return bytes(await self.space.read(addr, n))

    async def m32(self, addr):
        return struct.unpack("<I", await self.mread(addr, 4))[0]

    async def wait_until(self, what, cond, step=200):
        for _ in range(TIMEOUT // step):
            if await cond():
                return
            await ClockCycles(self.dut.clk_i, step)
        raise AssertionError(f"timed out after {TIMEOUT} cycles waiting for {what}; "
                             f"channel errors {[await self.err(c) for c in self.put]}")

    # ---- channels and pushbuffers (the same programming as hostdrv/src/channel.c)
    def ring(self, c):
        return self.sys_base + 0x100000 + 0x1000 * c

    async def ch_init(self, c, runlist, timeslice=1024):
        s = self.spec
        await self.wr(s.reg("CHANNEL", "CTRL", c), s.reg_fields("CHANNEL", "CTRL", RESET=1))
        await self.wr(s.reg("CHANNEL", "GPFIFO_BASE_LO", c), self.ring(c) & 0xFFFFFFFF)
        await self.wr(s.reg("CHANNEL", "GPFIFO_BASE_HI", c), self.ring(c) >> 32)
        await self.wr(s.reg("CHANNEL", "GPFIFO_SIZE", c), s.reg_fields("CHANNEL", "GPFIFO_SIZE", LOG2=RING_LOG2))
        await self.wr(s.reg("CHANNEL", "RUNLIST", c), s.reg_fields("CHANNEL", "RUNLIST", ID=runlist))
        await self.wr(s.reg("CHANNEL", "TIMESLICE", c), timeslice)
        await self.wr(s.reg("CHANNEL", "INTERLEAVE", c), 0)
        await self.wr(s.reg("CHANNEL", "ACQ_TIMEOUT", c), 0)
        await self.wr(s.reg("CHANNEL", "CTRL", c), s.reg_fields("CHANNEL", "CTRL", ENABLE=1))
        self.put[c] = 0

    async def err(self, c):
        return self.spec.reg_get("CHANNEL", "ERROR", "CAUSE", await self.rd(self.spec.reg("CHANNEL", "ERROR", c)))

    async def submit(self, c, words):
        s = self.spec
        pb = self.pb_next
        self.pb_next += (4 * len(words) + 63) & ~63
        await self.mwrite(pb, struct.pack(f"<{len(words)}I", *words))
        e0 = s.fmt("GP_ENTRY0", GET=(pb & 0xFFFFFFFF) >> 2)
        e1 = s.fmt("GP_ENTRY1", GET_HI=pb >> 32, LEVEL="MAIN", LENGTH=len(words), SYNC="PROCEED")
        slot = self.ring(c) + 8 * (self.put[c] % (1 << RING_LOG2))
        await self.mwrite(slot, struct.pack("<II", e0, e1))
        self.put[c] = (self.put[c] + 1) % (1 << RING_LOG2)
        await self.wr(s.reg("CHANNEL", "GP_PUT", c), self.put[c])

    async def drained(self, c):
        s = self.spec
        st = await self.rd(s.reg("CHANNEL", "STATUS", c))
        return (await self.rd(s.reg("CHANNEL", "GP_GET", c)) == self.put[c] and
                not s.reg_get("CHANNEL", "STATUS", "ENGINE_BUSY", st) and
                not s.reg_get("CHANNEL", "STATUS", "PENDING", st))


class PB:
    """A pushbuffer: method headers and data words (spec formats METHOD_HEADER, classes)."""
    def __init__(self, spec):
        self.s, self.w = spec, []

    def inc(self, sc, off, *data):
        self.w.append(self.s.fmt("METHOD_HEADER", SEC_OP="INC_METHOD", SUBCHANNEL=sc, COUNT=len(data),
                                 ADDRESS=off >> 2))
        self.w += list(data)
        return self

    def set_object(self, sc, cls):
        return self.inc(sc, self.s.method("HOST", "SET_OBJECT"), self.s.class_id(cls))

    def sem(self, addr, payload, **execute):
        s = self.s
        return self.inc(0, s.method("HOST", "SEM_ADDR_LO"), addr & 0xFFFFFFFF, addr >> 32, payload & 0xFFFFFFFF,
                        payload >> 32, s.method_fields("HOST", "SEM_EXECUTE", **execute))

    def copy(self, sc, src, dst, n, sem=None, payload=0):
        s = self.s
        self.inc(sc, s.method("COPY", "OFFSET_IN_UPPER"), src >> 32, src & 0xFFFFFFFF, dst >> 32, dst & 0xFFFFFFFF)
        self.inc(sc, s.method("COPY", "LINE_LENGTH_IN"), n, 1)
        f = dict(DATA_TRANSFER_TYPE="NON_PIPELINED", SRC_MEMORY_LAYOUT="PITCH", DST_MEMORY_LAYOUT="PITCH")
        if sem is not None:
            self.inc(sc, s.method("COPY", "SET_SEMAPHORE_A"), sem >> 32, sem & 0xFFFFFFFF, payload)
            f["SEMAPHORE_TYPE"] = "RELEASE_ONE_WORD_SEMAPHORE"
        return self.inc(sc, s.method("COPY", "LAUNCH_DMA"), s.method_fields("COPY", "LAUNCH_DMA", **f))


@cocotb.test(timeout_time=TEST_MS, timeout_unit="ms")
async def copies(dut):
    d = Device(dut)
    await d.reset()
    # runlist n + 1 is copy engine n: channel 1 on CE0, channel 2 on CE1
    await d.ch_init(1, 1)
    await d.ch_init(2, 2)
    sem_base = d.sys_base + 0x80000
    jobs = []
    sizes = [1, 7, 64, 100, 4097, 1000]
    for i, n in enumerate(sizes):
        to_vid = i % 2 == 0
        src = (d.sys_base if to_vid else d.vid_base) + 0x400000 + 0x8000 * i + d.rng.randrange(8)
        dst = (d.vid_base if to_vid else d.sys_base) + 0x800000 + 0x8000 * i + d.rng.randrange(8)
        data = bytes(d.rng.randrange(256) for _ in range(n))
        await d.mwrite(src, data)
        await d.mwrite(dst - 16, b"\xA5" * (n + 32))
        jobs.append((src, dst, data, sem_base + 16 * i, 0x1000 + i, 1 + i % 2))
    for src, dst, data, sem, pay, ch in jobs:
        await d.submit(ch, PB(d.spec).set_object(0, "COPY").copy(0, src, dst, len(data), sem, pay).w)
    dut._log.info("copies: %d submitted", len(jobs))
    for src, dst, data, sem, pay, ch in jobs:
        await d.wait_until(f"the semaphore of the {len(data)}-byte copy", lambda sem=sem, pay=pay: _eq(d, sem, pay))
    for ch in (1, 2):
        await d.wait_until(f"channel {ch} to drain", lambda ch=ch: d.drained(ch))
        assert await d.err(ch) == 0, f"channel {ch}: error cause {await d.err(ch)}"
    for src, dst, data, sem, pay, ch in jobs:
        got = await d.mread(dst - 16, len(data) + 32)
        assert got[16:-16] == data, f"copy of {len(data)} bytes {src:#x} -> {dst:#x}: destination differs"
        assert got[:16] == b"\xA5" * 16 and got[-16:] == b"\xA5" * 16, \
            f"copy of {len(data)} bytes to {dst:#x} wrote outside its destination"


async def _eq(d, addr, value):
    return await d.m32(addr) == value


@cocotb.test(timeout_time=TEST_MS, timeout_unit="ms")
async def semaphores(dut):
    d = Device(dut)
    await d.reset()
    await d.ch_init(3, 1)
    s = d.spec
    x, y, z = (d.sys_base + 0x90000 + 16 * i for i in range(3))
    await d.mwrite(x, struct.pack("<Q", 0))
    await d.mwrite(y, struct.pack("<Q", 0))
    await d.mwrite(z, struct.pack("<Q", 10))
    src, dst = d.sys_base + 0xA0000, d.vid_base + 0xA0000
    data = bytes(d.rng.randrange(256) for _ in range(256))
    await d.mwrite(src, data)
    await d.mwrite(dst, bytes(256))
    pb = (PB(s).set_object(1, "COPY")
          .sem(x, 5, OPERATION="ACQUIRE")                 # wait for x == 5
          .copy(1, src, dst, len(data))
          .sem(y, 7, OPERATION="RELEASE")
          .sem(z, 5, OPERATION="REDUCTION", REDUCTION="IADD", REDUCTION_FORMAT="UNSIGNED"))
    await d.submit(3, pb.w)
    # the acquire holds everything behind it for as long as x != 5
    for _ in range(ACQ_HOLD // 500):
        await ClockCycles(dut.clk_i, 500)
        assert await d.m32(y) == 0, "the release behind an unsatisfied acquire happened"
        assert await d.mread(dst, len(data)) == bytes(len(data)), "the copy behind an unsatisfied acquire ran"
        assert await d.m32(z) == 10, "the reduction behind an unsatisfied acquire happened"
    assert s.reg_get("CHANNEL", "STATUS", "ACQ_BLOCKED", await d.rd(s.reg("CHANNEL", "STATUS", 3))) or \
        await d.rd(s.reg("CHANNEL", "GP_GET", 3)) != d.put[3], "the channel does not show the blocked acquire"
    await d.mwrite(x, struct.pack("<I", 5))
    await d.wait_until("the release after the acquire", lambda: _eq(d, y, 7))
    await d.wait_until("channel 3 to drain", lambda: d.drained(3))
    assert await d.err(3) == 0, f"channel 3: error cause {await d.err(3)}"
    assert await d.mread(dst, len(data)) == data, "the copy after the acquire: destination differs"
    assert await d.m32(z) == 15, f"IADD 5 to 10 gave {await d.m32(z)}"


@cocotb.test(timeout_time=TEST_MS, timeout_unit="ms")
async def kernel(dut):
    d = Device(dut)
    await d.reset()
    s = d.spec
    path = os.environ.get("GC_KERNELS_ELF") or os.path.join(ROOT, "build", "firmware", "kernels.elf")
    with open(path, "rb") as fh:
        elf = ELFFile(fh)
        for seg in elf.iter_segments():
            if seg["p_type"] != "PT_LOAD" or not seg["p_memsz"]:
                continue
            body = seg.data() + bytes(seg["p_memsz"] - seg["p_filesz"])
            await d.mwrite(s.thread_to_device(seg["p_vaddr"]), body)
        entry = next(sym["st_value"] for sym in elf.get_section_by_name(".symtab").iter_symbols()
                     if sym.name == "vecadd")
    n = 100
    a = [d.rng.randrange(1 << 32) for _ in range(n)]
    b = [d.rng.randrange(1 << 32) for _ in range(n)]
    va, vb, vc = (d.vid_base + 0x200000 + 0x1000 * i for i in range(3))
    await d.mwrite(va, struct.pack(f"<{n}I", *a))
    await d.mwrite(vb, struct.pack(f"<{n}I", *b))
    await d.mwrite(vc, bytes(4 * n))
    param = d.vid_base + 0x210000
    await d.mwrite(param, struct.pack("<4I", *(s.device_to_thread(v) for v in (va, vb, vc)), n))
    tmd, sem = d.vid_base + 0x220000, d.sys_base + 0x98000
    await d.mwrite(sem, bytes(16))
    words = bytearray(s.struct_size("TMD"))
    for off, v in (s.struct_word("TMD", "ENTRY_PC", entry), s.struct_word("TMD", "PARAM", s.device_to_thread(param)),
                   s.struct_word("TMD", "GRID_X", 2), s.struct_word("TMD", "GRID_Y", 1),
                   s.struct_word("TMD", "GRID_Z", 1), s.struct_word("TMD", "CTA_DIM_XY", X=32, Y=1),
                   s.struct_word("TMD", "CTA_DIM_Z", Z=1), s.struct_word("TMD", "SMEM_BYTES", 0),
                   s.struct_word("TMD", "PRIORITY", LEVEL=0, DEPTH=1, MAX_DEPTH=1),
                   s.struct_word("TMD", "SEM_ADDR_LO", sem & 0xFFFFFFFF), s.struct_word("TMD", "SEM_ADDR_HI", HI=sem >> 32),
                   s.struct_word("TMD", "SEM_PAYLOAD", 0xC0FFEE), s.struct_word("TMD", "FLAGS", SEM_RELEASE=1)):
        words[off:off + 4] = struct.pack("<I", v)
    await d.mwrite(tmd, words)
    await d.ch_init(0, 0)   # runlist 0: the compute engine
    pb = (PB(s).set_object(0, "COMPUTE")
          .inc(0, s.method("COMPUTE", "SEND_PCAS_A"), s.method_fields("COMPUTE", "SEND_PCAS_A", QMD_ADDRESS_SHIFTED8=tmd >> 8))
          .inc(0, s.method("COMPUTE", "SEND_SIGNALING_PCAS_B"),
               s.method_fields("COMPUTE", "SEND_SIGNALING_PCAS_B", INVALIDATE="TRUE", SCHEDULE="TRUE")))
    await d.submit(0, pb.w)
    await d.wait_until("the kernel's completion semaphore", lambda: _eq(d, sem, 0xC0FFEE))
    await d.wait_until("channel 0 to drain", lambda: d.drained(0))
    assert await d.err(0) == 0, f"channel 0: error cause {await d.err(0)}"
    c = struct.unpack(f"<{n}I", await d.mread(vc, 4 * n))
    bad = [i for i in range(n) if c[i] != (a[i] + b[i]) & 0xFFFFFFFF]
    assert not bad, f"vecadd: c[i] != a[i] + b[i] at {len(bad)} of {n} elements, first i = {bad[0]}"
