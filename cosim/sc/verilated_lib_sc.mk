# Builds Verilator's run-time library for the SystemC model Verilator generated into this
# directory (VM_SC=1, the plugin's -fPIC flags), as libverilated_sc.a; the sc plugin links it
# instead of the rtl backend's build/vl/libverilated.a.
# Run as: make -C build/vl_sc -f <this file> libverilated_sc.a
include Vgpu_top_sc.mk
libverilated_sc.a: $(VK_GLOBAL_OBJS)
	$(AR) rcs $@ $^
