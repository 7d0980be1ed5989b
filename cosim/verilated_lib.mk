# Builds Verilator's run-time library (verilated.o, the FST writer, ...) for the model Verilator
# generated into this directory, as libverilated.a, so the harness links one archive pair.
# Run as: make -C build/vl -f <this file> libverilated.a
include Vgpu_top.mk
libverilated.a: $(VK_GLOBAL_OBJS)
	$(AR) rcs $@ $^
